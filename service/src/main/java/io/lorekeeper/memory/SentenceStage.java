package io.lorekeeper.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.ChunkEmbeddings;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.stage.EnrichmentStage;
import io.lorekeeper.document.stage.StageOrder;
import io.lorekeeper.document.stage.StageRun;
import io.lorekeeper.text.ChunkSentences;
import io.lorekeeper.text.Span;

/**
 * Embeds every sentence of every chunk once, after the document is READY, so that the extractive
 * strategy scores sentences with stored vectors instead of embedding a few hundred per question (it
 * spent 4.9 of a question's 5.8 s doing that on a novel, and 32 questions arriving together on a fresh
 * document each did it again). Needs no model endpoint; an enrichment, so READY does not wait for it,
 * and questions asked before it is done embed what they lack, as before. Resumes at the last chunk
 * it stored; a conversation that grew gets its new chunks' sentences.
 */
@Component
class SentenceStage extends EnrichmentStage {

    static final String NAME = "sentences";
    /** Chunks per checkpoint: each batch is stored before the next is embedded. */
    private static final int CHUNKS_PER_BATCH = 32;

    private final ChunkEmbeddings chunks;
    private final Embeddings embeddings;
    private final SentenceVectors vectors;

    SentenceStage(ChunkEmbeddings chunks, Embeddings embeddings, SentenceVectors vectors) {
        super(NAME, StageOrder.SENTENCES);
        this.chunks = chunks;
        this.embeddings = embeddings;
        this.vectors = vectors;
    }

    @Override
    public void run(StageRun run) {
        UUID documentId = run.document().id();
        boolean conversation = run.document().kind() == DocumentKind.CONVERSATION;
        int total = chunks.chunkCount(documentId);
        int next = Math.max(0, vectors.lastChunk(documentId));
        run.progress(next, total);
        while (true) {
            List<ChunkEmbeddings.ChunkText> batch = chunks.chunkTexts(documentId, next, CHUNKS_PER_BATCH);
            if (batch.isEmpty()) {
                run.progress(total, total);
                return;
            }
            List<SentenceVectors.Sentence> sentences = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            for (ChunkEmbeddings.ChunkText chunk : batch) {
                for (Span local : ChunkSentences.of(chunk.text(), conversation)) {
                    sentences.add(new SentenceVectors.Sentence(
                            chunk.ordinal(),
                            new Span(chunk.start() + local.start(), chunk.start() + local.end()),
                            null));
                    texts.add(local.of(chunk.text()));
                }
            }
            List<float[]> embedded = embeddings.passages(texts);
            List<SentenceVectors.Sentence> done = new ArrayList<>(sentences.size());
            for (int i = 0; i < sentences.size(); i++) {
                SentenceVectors.Sentence s = sentences.get(i);
                done.add(new SentenceVectors.Sentence(s.chunkOrdinal(), s.span(), embedded.get(i)));
            }
            vectors.store(documentId, done);
            next = batch.getLast().ordinal() + 1;
            run.progress(Math.min(next, total), total);
        }
    }

    @Override
    public void reset(UUID documentId) {
        vectors.clear(documentId);
    }
}
