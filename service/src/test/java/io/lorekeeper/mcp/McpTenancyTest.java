package io.lorekeeper.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.SecuredIntegrationTest;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.McpHttpClientTransportAuthorizationException;
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
