package io.lorekeeper.platform;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.servers.Server;

/**
 * Title, servers and the shared error contract of the published API (committed as api/openapi.yaml
 * for client generators). Operations name the error responses they can return by reference
 * ({@code @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)}); the responses and the
 * {@code Problem} schema they share are defined once here.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiInfo {

    @Bean
    OpenAPI lorekeeperApi() {
        Components components =
                new Components().addSchemas("ProblemError", problemError()).addSchemas("Problem", problem());
        response(components, ApiDocs.Responses.BAD_REQUEST, "The request is invalid: `field` names the input at fault");
        response(components, ApiDocs.Responses.NOT_FOUND, "No such resource for this tenant");
        response(
                components,
                ApiDocs.Responses.CONFLICT,
                "The resource is not in a state that allows this now (`type` says why)");
        response(
                components, ApiDocs.Responses.CONTENT_TOO_LARGE, "The body or file is larger than the service accepts");
        response(
                components,
                ApiDocs.Responses.UNSUPPORTED_MEDIA_TYPE,
                "The body or file has a media type the operation does not take");
        return new OpenAPI()
                .info(new Info()
                        .title("Lorekeeper API")
                        .version("v1")
                        .description("""
                                Question answering over very long documents and conversation histories, with every \
                                citation resolved to exact character offsets of the source.

                                Offsets (`start`, `end`) are always a half-open range `[start, end)` counted in UTF-16 \
                                code units into the document's canonical text (the text as stored: UTF-8 input with \
                                line endings normalised to `\\n`; a conversation rendered as `[Session n, date]` lines \
                                and `Speaker: text` turns). `GET /v1/documents/{id}/text?start=&end=` returns exactly \
                                the quoted span. Errors are RFC 9457 `application/problem+json` (schema `Problem`).""")
                        .license(new License().name("Apache License 2.0").identifier("Apache-2.0")))
                .servers(List.of(new Server()
                        .url("http://localhost:8080")
                        .description("A local run (scripts/run-local.sh, docker compose up)")))
                .components(components);
    }

    private static void response(Components components, String name, String description) {
        components.addResponses(
                name,
                new ApiResponse()
                        .description(description)
                        .content(new Content()
                                .addMediaType(
                                        ApiDocs.PROBLEM_JSON,
                                        new MediaType().schema(new Schema<>().$ref("#/components/schemas/Problem")))));
    }

    private static Schema<?> problemError() {
        return new ObjectSchema()
                .description("One input the service refused")
                .addProperty(
                        "field", new StringSchema().description("Path of the field, e.g. `sessions[2].turns[0].text`"))
                .addProperty("message", new StringSchema().description("What is wrong with it"))
                .required(List.of("field", "message"));
    }

    /** The members every problem has, and the extension members some of them carry (listed so clients can read them typed). */
    private static Schema<?> problem() {
        Schema<?> schema = new ObjectSchema()
                .description("An RFC 9457 problem: why a request was refused or failed")
                .addProperty(
                        "type",
                        new StringSchema()
                                .format("uri")
                                .description(
                                        "Identifies the kind of problem, e.g. `https://lorekeeper.io/problems/invalid-request`; "
                                                + "compare its last segment (`invalid-request`, `not-found`, `memory-not-ready`, ...)"))
                .addProperty("title", new StringSchema().description("Short summary of the kind of problem"))
                .addProperty(
                        "status",
                        new IntegerSchema()
                                .format("int32")
                                .minimum(java.math.BigDecimal.valueOf(400))
                                .maximum(java.math.BigDecimal.valueOf(599))
                                .description("The HTTP status code"))
                .addProperty(
                        "detail", new StringSchema().description("What went wrong with this request, for a person"))
                .addProperty("instance", new StringSchema().format("uri").description("The request path"))
                .addProperty("field", new StringSchema().description("The request field at fault, when one is"))
                .addProperty(
                        "errors",
                        new ArraySchema()
                                .items(new Schema<>().$ref("#/components/schemas/ProblemError"))
                                .description("Every refused input, the first one also named by `field`"))
                .addProperty(
                        "incident", new StringSchema().description("500 only: quote it when reporting the failure"))
                .required(List.of("type", "title", "status"));
        withMemoryNotReadyMembers(schema);
        schema.setExample(example());
        return schema;
    }

    /** The members a {@code memory-not-ready} problem adds: which memory is missing and how to build it. */
    private static void withMemoryNotReadyMembers(Schema<?> schema) {
        schema.addProperty(
                        "documentId",
                        new StringSchema()
                                .format("uuid")
                                .description("memory-not-ready: the document whose memory is missing"))
                .addProperty(
                        "stage",
                        new StringSchema()
                                .description("memory-not-ready: the memory (ingestion stage) that is missing"))
                .addProperty(
                        "state",
                        new StringSchema().description("memory-not-ready: that memory's state (FAILED, SKIPPED, ...)"))
                .addProperty(
                        "missing",
                        new ArraySchema()
                                .items(new StringSchema())
                                .description("memory-not-ready: every memory of that document the strategy lacks"))
                .addProperty(
                        "howToBuild", new StringSchema().description("memory-not-ready: the request that builds them"))
                .addProperty("reason", new StringSchema().description("memory-not-ready: why the memory is missing"))
                .addProperty(
                        "retryAt",
                        new StringSchema()
                                .format("date-time")
                                .description("memory-not-ready: when the failed memory is tried again"));
    }

    private static Map<String, Object> example() {
        // Ordered maps: the committed spec must come out the same on every start.
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("field", "text");
        error.put("message", "give exactly one of `text` or `sessions`");
        Map<String, Object> example = new LinkedHashMap<>();
        example.put("type", "https://lorekeeper.io/problems/invalid-request");
        example.put("title", "Invalid request");
        example.put("status", 400);
        example.put("detail", "give exactly one of `text` or `sessions`");
        example.put("field", "text");
        example.put("errors", List.of(error));
        return example;
    }
}
