package io.lorekeeper.memory;

import java.util.List;
import java.util.Locale;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

import io.lorekeeper.document.ChunkEmbeddings;

/**
 * The baseline of the ingestion benchmark: how fast the embedding model alone embeds the chunks of
 * already ingested documents, in the embed stage's batch size and through the same
 * {@link Embeddings} call, with no database writes, checkpoints or job scheduling. Ingestion
 * throughput divided by this is the share of the model's speed the pipeline keeps.
 *
 * <pre>
 * java -jar lorekeeper.jar --spring.profiles.active=embedding-benchmark --spring.main.web-application-type=none \
 *   --lorekeeper.benchmark.documents=&lt;id&gt;,&lt;id&gt;
 * </pre>
 * Prints a line per document, {@code raw-embedding document=… chunks=… tokens=… seconds=…}, and exits.
 */
@Component
@Profile("embedding-benchmark")
class EmbeddingThroughputCommand implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(EmbeddingThroughputCommand.class);

    private final Embeddings embeddings;
    private final EmbeddingSettings settings;
    private final ChunkEmbeddings chunkTexts;
    private final ConfigurableApplicationContext context;

    @Value("${lorekeeper.benchmark.documents}")
    List<UUID> documents;

    EmbeddingThroughputCommand(
            Embeddings embeddings,
            EmbeddingSettings settings,
            ChunkEmbeddings chunkTexts,
            ConfigurableApplicationContext context) {
        this.embeddings = embeddings;
        this.settings = settings;
        this.chunkTexts = chunkTexts;
        this.context = context;
    }

    @Override
    public void run(ApplicationArguments args) {
        int code = 0;
        try {
            documents.forEach(this::measure);
        } catch (RuntimeException e) {
            log.error("embedding benchmark failed", e);
            code = 1;
        }
        int status = code;
        System.exit(SpringApplication.exit(context, () -> status));
    }

    private void measure(UUID document) {
        List<ChunkEmbeddings.SizedText> chunks = chunkTexts.texts(document);
        if (chunks.isEmpty()) {
            throw new IllegalArgumentException("document " + document + " has no chunks");
        }
        int batch = settings.batchSize();
        embeddings.passages(chunks.subList(0, Math.min(batch, chunks.size())).stream()
                .map(ChunkEmbeddings.SizedText::text)
                .toList()); // warm-up
        long tokens =
                chunks.stream().mapToLong(ChunkEmbeddings.SizedText::tokenCount).sum();
        long started = System.nanoTime();
        for (int from = 0; from < chunks.size(); from += batch) {
            embeddings.passages(chunks.subList(from, Math.min(from + batch, chunks.size())).stream()
                    .map(ChunkEmbeddings.SizedText::text)
                    .toList());
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.println(String.format(
                Locale.ROOT,
                "raw-embedding document=%s chunks=%d tokens=%d seconds=%.3f",
                document,
                chunks.size(),
                tokens,
                seconds));
    }
}
