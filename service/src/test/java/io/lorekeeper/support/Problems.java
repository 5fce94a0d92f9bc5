package io.lorekeeper.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Assertions on the RFC 9457 problems a controller slice answers with. */
public final class Problems {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Problems() {}

    /**
     * Asserts that {@code result} is a problem+json response with this status and type (the last
     * segment of its type URI), naming {@code field} as the one at fault both as {@code field} and as
     * the first of {@code errors}; a null field asserts that none is named. Returns the body.
     */
    public static JsonNode assertProblem(MvcTestResult result, int status, String type, String field) {
        assertThat(result).as(body(result)).hasStatus(status);
        assertThat(result).contentType().isCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
        JsonNode problem = JSON.readTree(body(result));
        assertThat(problem.path("status").asInt()).as("status member").isEqualTo(status);
        assertThat(problem.path("type").asString()).isEqualTo("https://lorekeeper.io/problems/" + type);
        assertThat(problem.path("title").asString()).isNotBlank();
        assertThat(problem.path("detail").asString()).isNotBlank();
        if (field == null) {
            assertThat(problem.has("field")).as("no field named in " + problem).isFalse();
        } else {
            assertThat(problem.path("field").asString()).as(problem.toString()).isEqualTo(field);
            assertThat(problem.path("errors").path(0).path("field").asString())
                    .as(problem.toString())
                    .isEqualTo(field);
        }
        return problem;
    }

    /** The response body as JSON. */
    public static JsonNode json(MvcTestResult result) {
        return JSON.readTree(body(result));
    }

    private static String body(MvcTestResult result) {
        return new String(result.getResponse().getContentAsByteArray(), StandardCharsets.UTF_8);
    }
}
