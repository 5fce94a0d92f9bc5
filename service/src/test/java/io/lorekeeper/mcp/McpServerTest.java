package io.lorekeeper.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.lorekeeper.memory.FaultInjectingEmbeddingModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** An agent's session over streamable HTTP at /mcp, with the MCP SDK's own client. */
@IntegrationTest
@ExtendWith(OutputCaptureExtension.class)
class McpServerTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Value("${local.server.port}")
    int port;

    @Autowired
    Api api;

    @Autowired
    FaultInjectingEmbeddingModel embeddings;

    McpSyncClient client;

    @BeforeEach
    void connect() {
        client = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://localhost:" + port)
                        .endpoint("/mcp")
                        .build())
                .requestTimeout(Duration.ofSeconds(90))
                .build();
        client.initialize();
    }

    @AfterEach
    void disconnect() {
        embeddings.heal();
        client.closeGracefully();
    }

    @Test
    void listsItsTools() {
        List<McpSchema.Tool> tools = client.listTools().tools();

        assertThat(tools)
                .extracting(McpSchema.Tool::name)
                .containsExactlyInAnyOrder(
                        "list_documents", "add_text_document", "add_file", "search", "ask_question", "get_answer");
        assertThat(tools)
                .filteredOn(t -> t.name().equals("ask_question"))
                .singleElement()
                .satisfies(t -> assertThat(t.inputSchema().get("required"))
                        .asInstanceOf(InstanceOfAssertFactories.LIST)
                        .containsExactlyInAnyOrder("documentIds", "question"));
        assertThat(client.listResourceTemplates().resourceTemplates())
                .extracting(McpSchema.ResourceTemplate::uriTemplate)
                .contains("lorekeeper://documents/{documentId}/text/{start}/{end}");
        // resources/list is not empty: the caller's documents, whose ids the templates take
        assertThat(client.listResources().resources())
                .extracting(McpSchema.Resource::uri)
                .containsExactly("lorekeeper://documents");
        McpSchema.ReadResourceResult documents =
                client.readResource(new McpSchema.ReadResourceRequest("lorekeeper://documents"));
        assertThat(((McpSchema.TextResourceContents) documents.contents().getFirst()).text())
                .startsWith("{\"documents\":[");
    }

    @Test
    void addsADocumentAndAnswersWithCitationsThatQuoteTheSource() {
        String marker = UUID.randomUUID().toString();
        String text = "Keeper's journal " + marker + ".\nThe relief boat brought coal on Tuesday. "
                + "The keeper's cat was called Smudge and slept by the lamp. Fog closed the sound on Friday.";

        JsonNode added =
                json(call("add_text_document", Map.of("title", "Journal", "text", text, "profile", "retrieval-only")));
        UUID id = UUID.fromString(added.get("id").asString());
        assertThat(added.get("created").asBoolean()).isTrue();
        api.awaitDocument(id, "READY", Duration.ofMinutes(2));

        JsonNode listed = json(call("list_documents", Map.of("limit", 200)));
        assertThat(listed.get("documents").valueStream().map(d -> d.get("id").asString()))
                .contains(id.toString());

        JsonNode hits = json(call("search", Map.of("documentIds", List.of(id.toString()), "query", "cat Smudge")));
        assertThat(hits.get("hits").size()).isPositive();
        assertThat(text).contains(hits.get("hits").get(0).get("text").asString());

        JsonNode answer = json(call(
                "ask_question",
                Map.of(
                        "documentIds",
                        List.of(id.toString()),
                        "question",
                        "What was the keeper's cat called?",
                        "strategy",
                        "extractive",
                        "waitSeconds",
                        30)));
        assertThat(answer.get("status").asString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).contains("Smudge");
        JsonNode citations = answer.get("citations");
        assertThat(citations.size()).isPositive();
        for (JsonNode citation : citations) {
            int start = citation.get("start").asInt();
            int end = citation.get("end").asInt();
            assertThat(citation.get("quote").asString()).isEqualTo(text.substring(start, end));
            McpSchema.ReadResourceResult span = client.readResource(
                    new McpSchema.ReadResourceRequest("lorekeeper://documents/" + id + "/text/" + start + "/" + end));
            assertThat(((McpSchema.TextResourceContents) span.contents().getFirst()).text())
                    .isEqualTo(citation.get("quote").asString());
        }

        JsonNode again =
                json(call("get_answer", Map.of("questionId", answer.get("id").asString())));
        assertThat(again.get("citations")).isEqualTo(citations);
    }

    @Test
    void addsAFileGivenAsBase64ThroughTheUploadIntake() {
        byte[] html = io.lorekeeper.support.TestFiles.html(
                "Lights", List.of("Lights", "Skerry Point"), List.of("About lights.", "Agnes kept this light."));

        JsonNode added = json(call(
                "add_file",
                Map.of(
                        "fileName",
                        "lights.html",
                        "content",
                        java.util.Base64.getEncoder().encodeToString(html),
                        "profile",
                        "retrieval-only")));
        UUID id = UUID.fromString(added.get("id").asString());
        JsonNode doc = api.awaitDocument(id, "READY", Duration.ofMinutes(2));
        assertThat(doc.get("title").asString()).isEqualTo("lights");

        CallToolResult mismatch = client.callTool(new McpSchema.CallToolRequest(
                "add_file",
                Map.of(
                        "fileName",
                        "lights.pdf",
                        "content",
                        java.util.Base64.getEncoder().encodeToString(html))));
        assertThat(mismatch.isError()).isTrue();
        assertThat(json(mismatch).get("field").asString()).isEqualTo("file");
        CallToolResult notBase64 = client.callTool(
                new McpSchema.CallToolRequest("add_file", Map.of("fileName", "lights.html", "content", "not base64!")));
        assertThat(json(notBase64).get("field").asString()).isEqualTo("content");
    }

    @Test
    void refusalsAreToolErrorsNamingTheArgument() {
        CallToolResult noText =
                client.callTool(new McpSchema.CallToolRequest("add_text_document", Map.of("text", "  ")));
        assertThat(noText.isError()).isTrue();
        assertThat(json(noText).get("field").asString()).isEqualTo("text");

        CallToolResult badId = client.callTool(new McpSchema.CallToolRequest(
                "ask_question", Map.of("documentIds", List.of("not-an-id"), "question", "Who?")));
        assertThat(badId.isError()).isTrue();
        assertThat(json(badId).get("field").asString()).isEqualTo("documentIds[0]");

        CallToolResult unknown = client.callTool(new McpSchema.CallToolRequest(
                "get_answer", Map.of("questionId", UUID.randomUUID().toString())));
        assertThat(unknown.isError()).isTrue();
        assertThat(json(unknown).get("type").asString()).isEqualTo("not-found");
    }

    /**
     * A failure nobody anticipated (the embedding model breaking under a search) is a tool error with an
     * incident id and nothing of the internals, as the REST API's 500 is; the log has the cause.
     */
    @Test
    void anUnexpectedFailureIsAToolErrorWithAnIncidentIdAndNoInternals(CapturedOutput output) {
        UUID id = api.ingest(io.lorekeeper.support.TestDocuments.aText(
                        "The light on Sule Skerry " + UUID.randomUUID() + " was first lit in 1895.")
                .build());
        embeddings.failAfter(0);

        CallToolResult failed = client.callTool(new McpSchema.CallToolRequest(
                "search", Map.of("documentIds", List.of(id.toString()), "query", "when was it lit")));

        assertThat(failed.isError()).isTrue();
        JsonNode problem = json(failed);
        assertThat(problem.get("type").asString()).isEqualTo("internal-error");
        String incident = problem.get("incident").asString();
        assertThat(UUID.fromString(incident)).isNotNull();
        assertThat(problem.get("detail").asString()).contains(incident);
        assertThat(problem.toString())
                .doesNotContain("injected embedding failure")
                .doesNotContain("Exception")
                .doesNotContain("io.lorekeeper");
        assertThat(output.getAll())
                .contains("MCP tool search failed, incident " + incident)
                .contains("injected embedding failure");
    }

    private CallToolResult call(String tool, Map<String, Object> arguments) {
        CallToolResult result = client.callTool(new McpSchema.CallToolRequest(tool, arguments));
        assertThat(result.isError()).as("%s: %s", tool, result.content()).isNotEqualTo(Boolean.TRUE);
        return result;
    }

    private static JsonNode json(CallToolResult result) {
        return JSON.readTree(((McpSchema.TextContent) result.content().getFirst()).text());
    }
}
