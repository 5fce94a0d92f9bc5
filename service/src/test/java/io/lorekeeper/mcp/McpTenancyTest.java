package io.lorekeeper.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.SecuredIntegrationTest;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.McpHttpClientTransportAuthorizationException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** With keys required, /mcp takes the same keys as the REST API and every tool works in the key's tenant. */
@SecuredIntegrationTest
class McpTenancyTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Value("${local.server.port}")
    int port;

    @Autowired
    Api api;

    @Test
    void toolsRunInTheTenantOfTheKey() {
        String keyA = tenantKey("mcp-a");
        String keyB = tenantKey("mcp-b");
        String text = "Tide table " + UUID.randomUUID() + ".\nThe causeway floods two hours before high water. "
                + "The last bus to the island leaves at six.";

        try (McpSyncClient a = connect(keyA);
                McpSyncClient b = connect(keyB)) {
            JsonNode added = json(a.callTool(new McpSchema.CallToolRequest(
                    "add_text_document", Map.of("text", text, "profile", "retrieval-only"))));
            UUID id = UUID.fromString(added.get("id").asString());
            api.withKey(keyA).awaitDocument(id, "READY", Duration.ofMinutes(2));

            JsonNode answer = json(a.callTool(new McpSchema.CallToolRequest(
                    "ask_question",
                    Map.of(
                            "documentIds",
                            List.of(id.toString()),
                            "question",
                            "When does the causeway flood?",
                            "waitSeconds",
                            30))));
            assertThat(answer.get("status").asString()).isEqualTo("DONE");
            assertThat(answer.get("citations")).as(answer.toString()).isNotEmpty();
            for (JsonNode citation : answer.get("citations")) {
                assertThat(citation.get("quote").asString())
                        .isEqualTo(text.substring(
                                citation.get("start").asInt(),
                                citation.get("end").asInt()));
            }

            JsonNode listedByB =
                    json(b.callTool(new McpSchema.CallToolRequest("list_documents", Map.of("limit", 200))));
            assertThat(listedByB
                            .get("documents")
                            .valueStream()
                            .map(d -> d.get("id").asString()))
                    .doesNotContain(id.toString());
            CallToolResult searchedByB = b.callTool(new McpSchema.CallToolRequest(
                    "search", Map.of("documentIds", List.of(id.toString()), "query", "causeway")));
            assertThat(searchedByB.isError()).isTrue();
            assertThat(json(searchedByB).get("type").asString()).isEqualTo("not-found");
            CallToolResult answerForB = b.callTool(new McpSchema.CallToolRequest(
                    "get_answer", Map.of("questionId", answer.get("id").asString())));
            assertThat(answerForB.isError()).isTrue();
        }
    }

    /**
     * As {@code TenantIsolationTest} walks the REST API: tenant B calls every tool and reads every
     * resource that takes an id with tenant A's, and gets what an id that never existed gets, the id
     * aside: not found, with nothing of A's (not its text, title or length) in the answer.
     */
    @Test
    void everyToolAndResourceTakingAnIdAnswersAnotherTenantsIdAsNotFound() {
        String keyA = tenantKey("mcp-owner");
        String keyB = tenantKey("mcp-other");
        String secret = "Brannock " + UUID.randomUUID();
        String text = "The keeper's log of " + secret + ".\nThe fog signal failed twice in the winter of 1911.";

        try (McpSyncClient a = connect(keyA);
                McpSyncClient b = connect(keyB)) {
            JsonNode added = json(a.callTool(new McpSchema.CallToolRequest(
                    "add_text_document", Map.of("text", text, "title", secret, "profile", "retrieval-only"))));
            UUID document = UUID.fromString(added.get("id").asString());
            api.withKey(keyA).awaitDocument(document, "READY", Duration.ofMinutes(2));
            JsonNode asked = json(a.callTool(new McpSchema.CallToolRequest(
                    "ask_question",
                    Map.of(
                            "documentIds",
                            List.of(document.toString()),
                            "question",
                            "What failed?",
                            "waitSeconds",
                            30))));
            UUID question = UUID.fromString(asked.get("id").asString());
            JsonNode ownAdded = json(b.callTool(new McpSchema.CallToolRequest(
                    "add_text_document",
                    Map.of("text", "Tenant B's own note on buoys.", "profile", "retrieval-only"))));
            UUID own = UUID.fromString(ownAdded.get("id").asString());
            api.withKey(keyB).awaitDocument(own, "READY", Duration.ofMinutes(2));

            Map<String, Function<UUID, String>> probes = new LinkedHashMap<>();
            probes.put(
                    "search", id -> tool(b, "search", Map.of("documentIds", List.of(id.toString()), "query", "fog")));
            probes.put(
                    "search with B's own document too",
                    id -> tool(
                            b,
                            "search",
                            Map.of("documentIds", List.of(own.toString(), id.toString()), "query", "fog")));
            probes.put(
                    "ask_question",
                    id -> tool(
                            b,
                            "ask_question",
                            Map.of(
                                    "documentIds",
                                    List.of(id.toString()),
                                    "question",
                                    "What failed?",
                                    "waitSeconds",
                                    0)));
            probes.put("the text", id -> read(b, "lorekeeper://documents/" + id + "/text"));
            probes.put("a span", id -> read(b, "lorekeeper://documents/" + id + "/text/0/10"));
            probes.put("a span past the end", id -> read(b, "lorekeeper://documents/" + id + "/text/0/100000"));
            probes.put("an empty span", id -> read(b, "lorekeeper://documents/" + id + "/text/0/0"));
            Map<String, Function<UUID, String>> questionProbes =
                    Map.of("get_answer", id -> tool(b, "get_answer", Map.of("questionId", id.toString())));

            List<String> wrong = new ArrayList<>();
            probe(probes, document, wrong, secret);
            probe(questionProbes, question, wrong, secret);
            assertThat(wrong).as("answers to tenant B for tenant A's ids").isEmpty();

            // B adding the same text gets a document of its own, not A's id.
            JsonNode copy = json(b.callTool(new McpSchema.CallToolRequest(
                    "add_text_document", Map.of("text", text, "profile", "retrieval-only"))));
            assertThat(copy.get("created").asBoolean()).isTrue();
            assertThat(copy.get("id").asString()).isNotEqualTo(document.toString());
            // A still reads its own, unchanged.
            assertThat(read(a, "lorekeeper://documents/" + document + "/text")).isEqualTo("text " + text);
            assertThat(json(a.callTool(new McpSchema.CallToolRequest(
                                    "get_answer", Map.of("questionId", question.toString()))))
                            .get("id")
                            .asString())
                    .isEqualTo(question.toString());
        }
    }

    /**
     * Asks each probe about {@code id} and about an id that never existed: the answers must be the
     * same not-found once each id is blanked out, and hold nothing of {@code secret}.
     */
    private static void probe(Map<String, Function<UUID, String>> probes, UUID id, List<String> wrong, String secret) {
        UUID unknown = UUID.randomUUID();
        probes.forEach((name, probe) -> {
            String answer = probe.apply(id).replace(id.toString(), "<id>");
            String forUnknown = probe.apply(unknown).replace(unknown.toString(), "<id>");
            if (!answer.equals(forUnknown)) {
                wrong.add(name + ": " + answer + "\n    but for an unknown id: " + forUnknown);
            } else if (!answer.contains("not-found")
                    && !answer.contains("error " + McpSchema.ErrorCodes.RESOURCE_NOT_FOUND)) {
                wrong.add(name + ": not a not-found: " + answer);
            } else if (answer.contains(secret)) {
                wrong.add(name + ": shows the other tenant's text: " + answer);
            }
        });
    }

    /** A tool's answer as text: its JSON, marked when it is an error. */
    private static String tool(McpSyncClient client, String name, Map<String, Object> arguments) {
        CallToolResult result = client.callTool(new McpSchema.CallToolRequest(name, arguments));
        return (Boolean.TRUE.equals(result.isError()) ? "tool error " : "result ")
                + ((McpSchema.TextContent) result.content().getFirst()).text();
    }

    /** A resource read as text: the text read, or the JSON-RPC error it was refused with. */
    private static String read(McpSyncClient client, String uri) {
        try {
            McpSchema.ReadResourceResult result = client.readResource(new McpSchema.ReadResourceRequest(uri));
            return "text " + ((McpSchema.TextResourceContents) result.contents().getFirst()).text();
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof McpError error && error.getJsonRpcError() != null) {
                    McpSchema.JSONRPCResponse.JSONRPCError rpc = error.getJsonRpcError();
                    return "error " + rpc.code() + " " + rpc.message() + " " + rpc.data();
                }
            }
            throw e;
        }
    }

    @Test
    void aSessionWithoutAKeyIsRefused() {
        McpSyncClient anonymous = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://localhost:" + port)
                        .endpoint("/mcp")
                        .build())
                .requestTimeout(Duration.ofSeconds(30))
                .build();
        Throwable refused = catchThrowable(anonymous::initialize);
        anonymous.close();
        assertThat(refused).as("initialize without a key").isNotNull();
        Throwable authorization = refused;
        while (authorization != null && !(authorization instanceof McpHttpClientTransportAuthorizationException)) {
            authorization = authorization.getCause();
        }
        assertThat(authorization)
                .as("the client was refused for authorization: %s", refused)
                .isInstanceOfSatisfying(
                        McpHttpClientTransportAuthorizationException.class,
                        e -> assertThat(e.getResponseInfo().statusCode()).isEqualTo(401));
        // and the endpoint itself answers 401, not another error the client happened to throw on
        Api.Response raw = api.post(
                "/mcp",
                Map.of(
                        "jsonrpc",
                        "2.0",
                        "id",
                        1,
                        "method",
                        "initialize",
                        "params",
                        Map.of(
                                "protocolVersion", "2025-06-18",
                                "capabilities", Map.of(),
                                "clientInfo", Map.of("name", "anonymous", "version", "1"))));
        assertThat(raw.status()).as(raw.body()).isEqualTo(401);
    }

    private McpSyncClient connect(String key) {
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://localhost:" + port)
                        .endpoint("/mcp")
                        .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + key))
                        .build())
                .requestTimeout(Duration.ofSeconds(90))
                .build();
        client.initialize();
        return client;
    }

    /** A new tenant and a key for it, through the admin API. */
    private String tenantKey(String name) {
        Api admin = api.withKey(SecuredIntegrationTest.ADMIN_KEY);
        Api.Response tenant = admin.post(
                "/v1/tenants",
                Map.of("name", name + "-" + UUID.randomUUID().toString().substring(0, 8)));
        assertThat(tenant.status()).as(tenant.body()).isEqualTo(201);
        Api.Response key = admin.post(
                "/v1/tenants/" + tenant.json().get("id").asString() + "/keys",
                Map.of("name", "mcp", "canEvaluate", false));
        assertThat(key.status()).as(key.body()).isEqualTo(201);
        return key.json().get("key").asString();
    }

    private static JsonNode json(CallToolResult result) {
        return JSON.readTree(((McpSchema.TextContent) result.content().getFirst()).text());
    }
}
