package io.lorekeeper.memory;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;

/** The OpenAI wire format of {@code /v1/embeddings}, spoken by a stand-in as OpenAI, Ollama, vLLM and TEI speak it. */
class EndpointEmbeddingModelTest {

    /** Started for the class, emptied of stubs and requests before each test. */
    @RegisterExtension
    static final WireMockExtension server =
            WireMockExtension.newInstance().options(options().dynamicPort()).build();

    @Test
    void vectorsComeBackOnePerTextInOrder() {
        server.stubFor(post(urlEqualTo("/v1/embeddings"))
                .withHeader("Authorization", equalTo("Bearer sk-embed"))
                .withRequestBody(matchingJsonPath("$.model", equalTo("nomic-embed-text")))
                .withRequestBody(matchingJsonPath("$.input[1]", equalTo("second")))
                .willReturn(embeddings(List.of(vector(384, 0.5f), vector(384, -0.5f)))));

        List<float[]> vectors = model(384, 0).embed(List.of("first", "second"));

        assertThat(vectors).hasSize(2);
        assertThat(vectors.get(0)[0]).isEqualTo(0.5f);
        assertThat(vectors.get(1)[0]).isEqualTo(-0.5f);
        assertThat(model(384, 0).dimensions()).as("known without a call").isEqualTo(384);
    }

    @Test
    void theDimensionIsAskedForOnlyWhereConfigured() {
        server.stubFor(post(urlEqualTo("/v1/embeddings")).willReturn(embeddings(List.of(vector(256, 0.1f)))));

        model(256, 0, true).embed(List.of("text"));
        model(256, 0, false).embed(List.of("text"));

        List<String> bodies = server.getAllServeEvents().reversed().stream()
                .map(e -> e.getRequest().getBodyAsString())
                .toList();
        assertThat(bodies.get(0)).contains("\"dimensions\":256");
        assertThat(bodies.get(1)).doesNotContain("dimensions");
    }

    @Test
    void aReplyOfAnotherDimensionIsRefusedWithTheNumbers() {
        server.stubFor(post(urlEqualTo("/v1/embeddings")).willReturn(embeddings(List.of(vector(768, 0.1f)))));

        assertThatThrownBy(() -> model(384, 0).embed(List.of("text")))
                .hasMessageContaining("768-dimensional vectors where 384 are expected");
    }

    @Test
    void aFailingEndpointIsAClearErrorAfterItsRetries() {
        server.stubFor(post(urlEqualTo("/v1/embeddings")).willReturn(aResponse().withStatus(503)));

        assertThatThrownBy(() -> model(384, 1).embed(List.of("text")))
                .hasMessageContaining("the embeddings endpoint " + server.baseUrl() + "/v1 failed");
        assertThat(server.getAllServeEvents()).hasSize(2);
    }

    private static EndpointEmbeddingModel model(int dimensions, int retries) {
        return model(dimensions, retries, false);
    }

    private static EndpointEmbeddingModel model(int dimensions, int retries, boolean askDimensions) {
        return new EndpointEmbeddingModel(new EmbeddingEndpointSettings(
                server.baseUrl() + "/v1",
                "sk-embed",
                "nomic-embed-text",
                dimensions,
                Duration.ofSeconds(5),
                retries,
                askDimensions));
    }

    private static List<Float> vector(int dimensions, float first) {
        List<Float> vector = new ArrayList<>();
        vector.add(first);
        for (int i = 1; i < dimensions; i++) {
            vector.add(0.01f);
        }
        return vector;
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder embeddings(
            List<List<Float>> vectors) {
        StringBuilder data = new StringBuilder();
        for (int i = 0; i < vectors.size(); i++) {
            data.append(i == 0 ? "" : ",")
                    .append("{\"object\":\"embedding\",\"index\":")
                    .append(i)
                    .append(",\"embedding\":")
                    .append(vectors.get(i))
                    .append('}');
        }
        return aResponse()
                .withHeader("Content-Type", "application/json")
                .withBody("{\"object\":\"list\",\"data\":[" + data
                        + "],\"model\":\"nomic-embed-text\",\"usage\":{\"prompt_tokens\":3,\"total_tokens\":3}}");
    }
}
