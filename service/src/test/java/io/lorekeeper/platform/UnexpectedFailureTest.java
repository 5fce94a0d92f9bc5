package io.lorekeeper.platform;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.lorekeeper.memory.FaultInjectingEmbeddingModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * A failure nobody anticipated (here the embedding model breaking under a search) is a 500 problem
 * that tells the client an incident id and nothing of the internals; the log has the incident with
 * its cause.
 */
@IntegrationTest
@ExtendWith(OutputCaptureExtension.class)
class UnexpectedFailureTest {

    @Autowired
    Api api;

    @Autowired
    FaultInjectingEmbeddingModel embeddings;

    @AfterEach
    void heal() {
        embeddings.heal();
    }

    @Test
    void anUnexpectedFailureIsA500ProblemWithAnIncidentIdAndNoInternals(CapturedOutput output) {
        UUID doc = api.ingest(aText("The lighthouse on Eilean Glas " + UUID.randomUUID() + " was lit in 1789.")
                .build());
        embeddings.failAfter(0);

        Api.Response response = api.post(
                "/v1/search",
                Map.of(
                        "documentIds",
                        List.of(doc),
                        "mode",
                        "vector",
                        "query",
                        "when was the light first lit " + UUID.randomUUID()));

        assertThat(response.status()).as(response.body()).isEqualTo(500);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        JsonNode problem = response.json();
        assertThat(problem.get("type").asString()).endsWith("/internal-error");
        assertThat(problem.get("title").asString()).isEqualTo("Internal error");
        assertThat(problem.get("status").asInt()).isEqualTo(500);
        String incident = problem.get("incident").asString();
        assertThat(UUID.fromString(incident)).isNotNull();
        assertThat(problem.get("detail").asString()).contains(incident);
        assertThat(response.body())
                .doesNotContain("injected embedding failure")
                .doesNotContain("IllegalStateException")
                .doesNotContain("io.lorekeeper")
                .doesNotContain("trace");
        // the operator finds the cause under the incident id the client quotes
        assertThat(output.getAll())
                .contains("Unhandled error, incident " + incident)
                .contains("injected embedding failure");
    }
}
