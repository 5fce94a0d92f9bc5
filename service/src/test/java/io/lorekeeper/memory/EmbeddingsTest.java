package io.lorekeeper.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

/** Question-time passages are embedded once, however many questions ask for them at the same moment. */
class EmbeddingsTest {

    /** Counts the passages it embeds, and takes its time, so that concurrent callers overlap. */
    static final class SlowModel implements EmbeddingModel {
        final AtomicInteger embedded = new AtomicInteger();

        @Override
        public EmbeddingResponse call(EmbeddingRequest request) {
            embedded.addAndGet(request.getInstructions().size());
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            List<Embedding> out = new ArrayList<>();
            for (int i = 0; i < request.getInstructions().size(); i++) {
                out.add(new Embedding(
                        new float[] {request.getInstructions().get(i).length(), i}, i));
            }
            return new EmbeddingResponse(out);
        }

        @Override
        public float[] embed(Document document) {
            return embed(document.getText());
        }

        @Override
        public int dimensions() {
            return 2;
        }
    }

    @Test
    void concurrentCallersShareTheEmbeddingInProgressInsteadOfRepeatingIt() throws Exception {
        SlowModel model = new SlowModel();
        Embeddings embeddings = new Embeddings(
                model,
                new EmbeddingSettings(
                        1, 64, "q: ", 1, 0, java.time.Duration.ofSeconds(1), java.time.Duration.ofSeconds(60)));
        List<String> sentences = List.of("Pip met a convict.", "Joe was a smith.", "Estella was cold.");
        int callers = 8;
        CyclicBarrier start = new CyclicBarrier(callers);
        List<Future<List<float[]>>> results = new ArrayList<>();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < callers; i++) {
                results.add(threads.submit(() -> {
                    start.await();
                    return embeddings.recentPassages(sentences);
                }));
            }
            for (Future<List<float[]>> result : results) {
                List<float[]> vectors = result.get();
                assertThat(vectors).hasSize(3);
                assertThat(vectors.get(1)[0]).isEqualTo("Joe was a smith.".length());
            }
        }

        assertThat(model.embedded.get())
                .as("each sentence embedded once for eight callers")
                .isEqualTo(3);
        embeddings.recentPassages(List.of("Joe was a smith.", "Herbert was kind."));
        assertThat(model.embedded.get()).as("only the new sentence").isEqualTo(4);
    }
}
