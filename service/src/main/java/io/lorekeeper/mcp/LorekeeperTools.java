package io.lorekeeper.mcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentCatalog;
import io.lorekeeper.document.Documents;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.question.Questions;
import io.lorekeeper.retrieval.Retriever;
import io.lorekeeper.retrieval.SearchHit;
import io.lorekeeper.retrieval.SearchMode;
import io.lorekeeper.retrieval.SearchQuery;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import tools.jackson.databind.json.JsonMapper;

/**
 * The MCP tools and resources. Each tool reads its arguments, calls a module's public API under the
 * caller's tenant and returns JSON text (and the same object as structured content). A refusal comes
 * back as a tool error naming the argument at fault, as the REST API's problems name the field.
 */
@Component
class LorekeeperTools {

    private static final int DEFAULT_WAIT_SECONDS = 20;
    private static final Pattern SPAN_URI = Pattern.compile("lorekeeper://documents/([^/]+)/text(?:/(\\d+)/(\\d+))?");

    private final DocumentCatalog catalog;
    private final Documents documents;
    private final Questions questions;
    private final Retriever retriever;
    private final JsonMapper json;
    private final int maxWaitSeconds;

    LorekeeperTools(
            DocumentCatalog catalog, Documents documents, Questions questions, Retriever retriever, JsonMapper json) {
        this.catalog = catalog;
        this.documents = documents;
        this.questions = questions;
        this.retriever = retriever;
        this.json = json;
        this.maxWaitSeconds = (int) questions.maxWait().toSeconds();
    }

    List<SyncToolSpecification> tools() {
        List<SyncToolSpecification> tools = new java.util.ArrayList<>(documentTools());
        tools.addAll(questionTools());
        return tools;
    }

    /** Listing and adding documents. */
    private List<SyncToolSpecification> documentTools() {
        return List.of(
                tool(
                        "list_documents",
                        "List the caller's documents, newest first, with their status (ask only about READY ones)",
                        schema(Map.of("limit", integer("How many to list (1 to 200, default 20)")), List.of()),
                        (tenant, args) -> Map.of(
                                "documents", catalog.newest(tenant, Arguments.integer(args, "limit", 20, 1, 200)))),
                tool(
                        "add_text_document",
                        "Add a text document; it is ingested in the background (READY when searchable)",
                        schema(
                                Map.of(
                                        "text",
                                        string("The full text (UTF-8)"),
                                        "title",
                                        string("Optional title"),
                                        "profile",
                                        string("Index profile: standard (default), retrieval-only or deep")),
                                List.of("text")),
                        (tenant, args) -> catalog.addText(
                                Arguments.string(args, "title"),
                                Arguments.required(args, "text"),
                                Arguments.string(args, "profile"))),
                tool(
                        "add_file",
                        "Add a file (.txt, .md, .pdf, .docx, .html or .epub, given as base64); its text is extracted "
                                + "and it is ingested in the background (READY when searchable). Citations into it name "
                                + "their page (PDF) and section (headings)",
                        schema(
                                Map.of(
                                        "content",
                                        string("The file's bytes, base64-encoded"),
                                        "fileName",
                                        string(
                                                "The file's name; its extension must match the content (e.g. report.pdf)"),
                                        "title",
                                        string("Optional title (default: the file name without its extension)"),
                                        "profile",
                                        string("Index profile: standard (default), retrieval-only or deep")),
                                List.of("content", "fileName")),
                        (tenant, args) -> catalog.addFile(
                                Arguments.required(args, "fileName"),
                                base64(args, "content"),
                                Arguments.string(args, "title"),
                                Arguments.string(args, "profile"))));
    }

    /** Searching documents, asking and reading answers. */
    private List<SyncToolSpecification> questionTools() {
        return List.of(
                tool(
                        "search",
                        "Find the passages of READY documents that match a query; offsets are UTF-16 code units",
                        schema(
                                Map.of(
                                        "documentIds",
                                        ids(),
                                        "query",
                                        string("What to look for"),
                                        "k",
                                        integer("Passages to return (1 to 50, default 5)")),
                                List.of("documentIds", "query")),
                        this::search),
                tool(
                        "ask_question",
                        "Ask a question over READY documents. Waits up to waitSeconds for the answer; if it is not "
                                + "ready by then, returns the question id to pass to get_answer",
                        schema(
                                Map.of(
                                        "documentIds",
                                        ids(),
                                        "question",
                                        string("The question"),
                                        "strategy",
                                        string("Answer strategy (default extractive: verbatim evidence, no model)"),
                                        "waitSeconds",
                                        integer("Seconds to wait for the answer (0 to " + maxWaitSeconds + ", default "
                                                + defaultWaitSeconds() + ")")),
                                List.of("documentIds", "question")),
                        this::ask),
                tool(
                        "get_answer",
                        "The status of a question and, once DONE, its answer with citations",
                        schema(Map.of("questionId", string("The id ask_question returned")), List.of("questionId")),
                        (tenant, args) -> answer(tenant, Arguments.uuid(args, "questionId"))));
    }

    List<SyncResourceTemplateSpecification> resourceTemplates() {
        return List.of(
                new SyncResourceTemplateSpecification(
                        McpSchema.ResourceTemplate.builder()
                                .uriTemplate("lorekeeper://documents/{documentId}/text/{start}/{end}")
                                .name("document-span")
                                .title("A span of a document's text")
                                .description(
                                        "The canonical text in [start, end), offsets in UTF-16 code units: a citation's quote")
                                .mimeType("text/plain")
                                .build(),
                        this::readSpan),
                new SyncResourceTemplateSpecification(
                        McpSchema.ResourceTemplate.builder()
                                .uriTemplate("lorekeeper://documents/{documentId}/text")
                                .name("document-text")
                                .title("A document's whole canonical text")
                                .mimeType("text/plain")
                                .build(),
                        this::readSpan));
    }

    private Object search(UUID tenant, Map<String, Object> args) {
        List<UUID> ids = Arguments.uuids(args, "documentIds");
        String query = SearchQuery.require("query", Arguments.string(args, "query"));
        int k = Arguments.integer(args, "k", 5, 1, 50);
        List<UUID> ready = documents.requireReady(tenant, ids, "documentIds").stream()
                .map(d -> d.id())
                .toList();
        List<Map<String, Object>> hits = new ArrayList<>();
        for (SearchHit hit : retriever.search(ready, query, SearchMode.HYBRID, k)) {
            Map<String, Object> h = new LinkedHashMap<>();
            h.put("documentId", hit.documentId());
            h.put("start", hit.start());
            h.put("end", hit.end());
            h.put("score", hit.score());
            h.put("text", hit.text());
            hits.add(h);
        }
        return Map.of("hits", hits);
    }

    private Object ask(UUID tenant, Map<String, Object> args) {
        List<UUID> ids = Arguments.uuids(args, "documentIds");
        String question = Arguments.required(args, "question");
        int wait = Arguments.integer(args, "waitSeconds", defaultWaitSeconds(), 0, maxWaitSeconds);
        UUID id = questions.ask(ids, question, Arguments.string(args, "strategy"));
        try {
            return questions.await(tenant, id, Duration.ofSeconds(wait)).orElseThrow();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return questions.find(tenant, id).orElseThrow();
        }
    }

    private int defaultWaitSeconds() {
        return Math.min(DEFAULT_WAIT_SECONDS, maxWaitSeconds);
    }

    private Object answer(UUID tenant, UUID id) {
        return questions.find(tenant, id).orElseThrow(() -> ApiProblem.notFound("Question", id));
    }

    private McpSchema.ReadResourceResult readSpan(
            McpSyncServerExchange exchange, McpSchema.ReadResourceRequest request) {
        Matcher uri = SPAN_URI.matcher(request.uri());
        if (!uri.matches()) {
            throw new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(
                    McpSchema.ErrorCodes.INVALID_PARAMS, "not a document text URI: " + request.uri(), null));
        }
        UUID tenant = tenantOf(exchange);
        UUID id;
        try {
            id = UUID.fromString(uri.group(1));
        } catch (IllegalArgumentException e) {
            throw resourceError("not a document id: " + uri.group(1));
        }
        if (documents.find(tenant, id).isEmpty()) {
            throw resourceError("document " + id + " does not exist");
        }
        String text = documents.text(id);
        int start = uri.group(2) == null ? 0 : Integer.parseInt(uri.group(2));
        int end = uri.group(3) == null ? text.length() : Integer.parseInt(uri.group(3));
        if (start > end || end > text.length()) {
            throw resourceError("the span must lie within [0, " + text.length() + "] with start <= end");
        }
        return new McpSchema.ReadResourceResult(
                List.of(new McpSchema.TextResourceContents(request.uri(), "text/plain", text.substring(start, end))));
    }

    private static byte[] base64(Map<String, Object> args, String name) {
        String value = Arguments.required(args, name);
        try {
            return java.util.Base64.getMimeDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.invalid(name, name + " must be base64: " + e.getMessage());
        }
    }

    private static McpError resourceError(String message) {
        return new McpError(
                new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS, message, null));
    }

    private interface Handler {
        Object handle(UUID tenant, Map<String, Object> arguments);
    }

    private SyncToolSpecification tool(
            String name, String description, Map<String, Object> inputSchema, Handler handler) {
        return SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder()
                        .name(name)
                        .description(description)
                        .inputSchema(inputSchema)
                        .build())
                .callHandler((exchange, request) ->
                        call(handler, tenantOf(exchange), request.arguments() == null ? Map.of() : request.arguments()))
                .build();
    }

    private CallToolResult call(Handler handler, UUID tenant, Map<String, Object> arguments) {
        try {
            Object result = handler.handle(tenant, arguments);
            Object tree = json.convertValue(result, Object.class);
            return CallToolResult.builder()
                    .addTextContent(json.writeValueAsString(tree))
                    .structuredContent(tree)
                    .build();
        } catch (ApiProblem problem) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("type", problem.type());
            body.put("title", problem.title());
            body.put("detail", problem.getMessage());
            if (problem.field() != null) {
                body.put("field", problem.field());
            }
            return CallToolResult.builder()
                    .isError(true)
                    .addTextContent(json.writeValueAsString(body))
                    .build();
        }
    }

    private static UUID tenantOf(McpSyncServerExchange exchange) {
        return (UUID) exchange.transportContext().get(McpEndpoint.TENANT);
    }

    private static Map<String, Object> schema(Map<String, Object> properties, List<String> required) {
        return Map.of("type", "object", "properties", properties, "required", required);
    }

    private static Map<String, Object> string(String description) {
        return Map.of("type", "string", "description", description);
    }

    private static Map<String, Object> integer(String description) {
        return Map.of("type", "integer", "description", description);
    }

    private static Map<String, Object> ids() {
        return Map.of(
                "type", "array", "items", Map.of("type", "string", "format", "uuid"), "description", "Document ids");
    }

    /** Reads tool arguments as the REST API reads fields: a wrong one is a problem naming it. */
    static final class Arguments {

        private Arguments() {}

        static String string(Map<String, Object> args, String name) {
            Object value = args.get(name);
            if (value != null && !(value instanceof String)) {
                throw ApiProblem.invalid(name, name + " must be a string");
            }
            return (String) value;
        }

        static String required(Map<String, Object> args, String name) {
            String value = string(args, name);
            if (value == null || value.isBlank()) {
                throw ApiProblem.invalid(name, name + " is required");
            }
            return value;
        }

        static int integer(Map<String, Object> args, String name, int fallback, int min, int max) {
            Object value = args.get(name);
            if (value == null) {
                return fallback;
            }
            if (!(value instanceof Number n)
                    || n.doubleValue() != Math.rint(n.doubleValue())
                    || n.doubleValue() < min
                    || n.doubleValue() > max) {
                throw ApiProblem.invalid(name, name + " must be a whole number from " + min + " to " + max);
            }
            return n.intValue();
        }

        static UUID uuid(Map<String, Object> args, String name) {
            return parse(name, required(args, name));
        }

        static List<UUID> uuids(Map<String, Object> args, String name) {
            if (!(args.get(name) instanceof List<?> values) || values.isEmpty()) {
                throw ApiProblem.invalid(name, name + " must be a non-empty list of document ids");
            }
            List<UUID> ids = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                String field = name + "[" + i + "]";
                ids.add(parse(field, values.get(i) instanceof String s ? s : null));
            }
            return ids;
        }

        private static UUID parse(String field, String value) {
            try {
                return UUID.fromString(String.valueOf(value));
            } catch (IllegalArgumentException e) {
                throw ApiProblem.invalid(field, "'" + value + "' is not an id");
            }
        }
    }
}
