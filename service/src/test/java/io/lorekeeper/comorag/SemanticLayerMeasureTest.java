package io.lorekeeper.comorag;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.document.Documents;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;

/**
 * The first level of the semantic layer over the units of a whole novel (Great Expectations, about
 * 570 units): how many clusters each step of RAPTOR's clustering makes (global mixture, local
 * mixture, re-clustering under the token cap, main-axis split), memberships and time, under UMAP
 * and PCA on the same vectors. Only the {@code veridical} stage is built (no model calls: the units
 * and their embeddings). Run with {@code -Dlorekeeper.measure.semantic=true}; prints the figures
 * docs/benchmarks.md quotes.
 */
@LlmIntegrationTest
@EnabledIfSystemProperty(named = "lorekeeper.measure.semantic", matches = "true")
class SemanticLayerMeasureTest {

    private static final Path NOVEL = Path.of("..", "shared", "data", "novels", "great_expectations_pg1400.txt");

    @Autowired
    Api api;

    @Autowired
    ComoRagStore store;

    @Autowired
    Documents documents;

    @Test
    void clustersOfAWholeNovelComeMostlyFromTheMixtures() throws Exception {
        String novel = Files.readString(NOVEL).replace("\r\n", "\n");
        Api.Response posted = api.post("/v1/documents", Map.of("title", "Great Expectations", "text", novel));
        UUID id = UUID.fromString(posted.json().get("id").asString());
        api.awaitDocument(id, "READY", Duration.ofMinutes(30));
        Api.Response reindex = api.post("/v1/documents/" + id + "/reindex", Map.of("stages", List.of("veridical")));
        assertThat(reindex.status()).isEqualTo(202);
        long deadline = System.nanoTime() + Duration.ofMinutes(20).toNanos();
        while (store.unitVectors(id).isEmpty() || !veridicalDone(id)) {
            assertThat(System.nanoTime()).as("the veridical stage ends").isLessThan(deadline);
            Thread.sleep(500);
        }
        var units = store.unitVectors(id);
        String text = documents.text(id);
        String dump = System.getProperty("lorekeeper.measure.semantic.dump");
        if (dump != null) {
            // tokens and vector of each unit, one a line, to try clusterings on without embedding the novel again
            Files.write(
                    Path.of(dump),
                    units.stream()
                            .map(u -> io.lorekeeper.text.TokenCounter.count(
                                            u.item().span().of(text)) + "\t"
                                    + java.util.Arrays.toString(u.vector()).replaceAll("[\\[\\] ]", ""))
                            .toList());
        }
        SemanticLevelReport.print(units, text);

        int[] tokens = units.stream()
                .mapToInt(u ->
                        io.lorekeeper.text.TokenCounter.count(u.item().span().of(text)))
                .toArray();
        SemanticMixture.Clustering clustering = ComoRagSettings.defaults()
                .clusters(units.stream().map(ComoRagStore.Vectored::vector).toList(), tokens);
        assertThat(clustering.fromMixture())
                .as("most clusters come from the mixtures, not from splits: %s", clustering.byOrigin())
                .isGreaterThan(clustering.byOrigin().get(SemanticMixture.Origin.SPLIT));
        assertThat(clustering.localPasses()).isGreaterThanOrEqualTo(1);
    }

    private boolean veridicalDone(UUID id) {
        for (var stage : api.get("/v1/documents/" + id).json().get("stages")) {
            if (stage.get("name").asString().equals("veridical")) {
                return stage.get("status").asString().equals("DONE");
            }
        }
        return false;
    }
}
