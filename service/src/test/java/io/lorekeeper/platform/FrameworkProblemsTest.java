package io.lorekeeper.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The framework's own refusals (no such path, a method a path does not take) are typed problems like ours. */
@IntegrationTest
class FrameworkProblemsTest {

    @Autowired
    Api api;

    @Test
    void anUnknownPathIsATypedNotFound() {
        Api.Response response = api.get("/v1/nope");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        assertThat(response.json().get("type").asString()).isEqualTo(ProblemResponses.TYPE_BASE + "not-found");
    }

    @Test
    void aMethodThePathDoesNotTakeIsATypedMethodNotAllowed() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(api.uri("/v1/documents"))
                                .method("PUT", HttpRequest.BodyPublishers.ofString("{}"))
                                .header("Content-Type", "application/json")
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).isPresent();
        JsonNode problem = JsonMapper.builder().build().readTree(response.body());
        assertThat(problem.get("type").asString()).isEqualTo(ProblemResponses.TYPE_BASE + "method-not-allowed");
        assertThat(URI.create(problem.get("type").asString()).isAbsolute()).isTrue();
    }
}
