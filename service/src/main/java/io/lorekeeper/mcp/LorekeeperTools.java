package io.lorekeeper.mcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentCatalog;
import io.lorekeeper.document.Documents;
import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.platform.StorableText;
import io.lorekeeper.question.Questions;
import io.lorekeeper.retrieval.Retriever;
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
 * caller's tenant and returns JSON text (and the same object as structured content). Arguments are
 * held to the rules of the REST API: every string to {@link StorableText}, each field to the same
 * module check. A refusal comes back as a tool error naming the argument at fault, as the REST API's
 * problems name the field; any other failure as a tool error with an incident id, its cause only in
 * the log, as the REST API answers a 500.
 */
@Component
class LorekeeperTools {

    private static final Logger log = LoggerFactory.getLogger(LorekeeperTools.class);
    private static final int DEFAULT_WAIT_SECONDS = 20;
    // The offsets are matched loosely so that a malformed one is refused naming it, not as an unknown URI.
    private static final Pattern SPAN_URI = Pattern.compile("lorekeeper://documents/([^/]+)/text(?:/([^/]+)/([^/]+))?");

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
                                + "ready by then, returns the question id to pass to get_answer. " + ANSWER_KINDS,
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
                        "The status of a question and, once DONE, its answer with citations. " + ANSWER_KINDS,
                        schema(Map.of("questionId", string("The id ask_question returned")), List.of("questionId")),
                        (tenant, args) -> answer(tenant, Arguments.uuid(args, "questionId"))));
    }

    /** The URI of the resource that lists the caller's documents. */
    static final String DOCUMENTS_URI = "lorekeeper://documents";

    /**
     * Resources with a fixed URI, for {@code resources/list}: the caller's documents (what a client
     * reads to find the ids the templates take). Read under the caller's tenant, like every tool.
     */
    List<io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification> resources() {
        return List.of(new io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification(
                McpSchema.Resource.builder()
                        .uri(DOCUMENTS_URI)
                        .name("documents")
                        .title("The caller's documents")
                        .description("The newest 200 documents of the caller, with their ids, titles and status,"
                                + " as JSON: the ids that lorekeeper://documents/{documentId}/text takes")
                        .mimeType("application/json")
                        .build(),
                (exchange, request) -> new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(
                        DOCUMENTS_URI,
                        "application/json",
                        json.writeValueAsString(Map.of("documents", catalog.newest(tenantOf(exchange), 200))))))));
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
                        this::read),
                new SyncResourceTemplateSpecification(
                        McpSchema.ResourceTemplate.builder()
                                .uriTemplate("lorekeeper://documents/{documentId}/text")
                                .name("document-text")
                                .title("A document's whole canonical text")
                                .mimeType("text/plain")
                                .build(),
                        this::read));
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

    /** What a caller, often a model, needs to read a passage answer as passages rather than a failed short one. */
    private static final String ANSWER_KINDS = "answerKind says what the answer is: span (a short answer quoted from"
            + " the source), passage (no short answer was clear enough: the answer is the passages most likely to"
            + " hold it, each one a citation, to be read), or generated (written by a model from the citations)";

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

    /**
     * Reads a document's text or a span of it. A refusal is a JSON-RPC error carrying the same body as
     * a tool's (the argument at fault in {@code data.field}); another tenant's document, like one that
     * never existed, is "resource not found".
     */
    private McpSchema.ReadResourceResult read(McpSyncServerExchange exchange, McpSchema.ReadResourceRequest request) {
        try {
            String text = span(tenantOf(exchange), request.uri());
            return new McpSchema.ReadResourceResult(
                    List.of(new McpSchema.TextResourceContents(request.uri(), "text/plain", text)));
        } catch (ApiProblem problem) {
            int code = problem.kind() == ApiProblem.Kind.NOT_FOUND
                    ? McpSchema.ErrorCodes.RESOURCE_NOT_FOUND
                    : McpSchema.ErrorCodes.INVALID_PARAMS;
            throw new McpError(
                    new McpSchema.JSONRPCResponse.JSONRPCError(code, problem.getMessage(), problemBody(problem)));
        } catch (RuntimeException e) {
            Map<String, Object> body = unexpected("resource read", e);
            throw new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(
                    McpSchema.ErrorCodes.INTERNAL_ERROR, (String) body.get("detail"), body));
        }
    }

    /** The text in [start, end) of the document the URI names, checked as {@code GET /v1/documents/{id}/text} checks it. */
    private String span(UUID tenant, String uri) {
        StorableText.require("uri", uri);
        Matcher parts = SPAN_URI.matcher(String.valueOf(uri));
        if (!parts.matches()) {
            throw ApiProblem.invalid(
                    "uri", "not a document text URI: lorekeeper://documents/{documentId}/text[/{start}/{end}]");
        }
        UUID id;
        try {
            id = UUID.fromString(parts.group(1));
        } catch (IllegalArgumentException e) {
            throw ApiProblem.invalid("documentId", "'" + parts.group(1) + "' is not a document id");
        }
        Integer start = offset("start", parts.group(2));
        Integer end = offset("end", parts.group(3));
        documents.find(tenant, id).orElseThrow(() -> ApiProblem.notFound("Document", id));
        String text = documents.text(id);
        int from = start == null ? 0 : start;
        int to = end == null ? text.length() : end;
        if (from > text.length()) {
            throw ApiProblem.invalid("start", "start must be within [0, " + text.length() + "]");
        }
        if (to < from || to > text.length()) {
            throw ApiProblem.invalid("end", "end must be within [start, " + text.length() + "]");
        }
        return text.substring(from, to);
    }

    /** An offset in the URI: null when absent, a refusal naming it when it is not a whole number. */
    private static Integer offset(String name, String value) {
        if (value == null) {
            return null;
        }
        if (!value.matches("[0-9]+")) {
            throw ApiProblem.invalid(name, name + " must be a whole number of UTF-16 code units from 0");
        }
        // Past the int range is past the end of any text: refused as out of range below, not as an overflow.
        return value.length() > 10 ? Integer.MAX_VALUE : (int) Math.min(Long.parseLong(value), Integer.MAX_VALUE);
    }

    private static byte[] base64(Map<String, Object> args, String name) {
        String value = Arguments.required(args, name);
        try {
            return java.util.Base64.getMimeDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.invalid(name, name + " must be base64: " + e.getMessage());
        }
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
                .callHandler((exchange, request) -> call(
                        name,
                        handler,
                        tenantOf(exchange),
                        request.arguments() == null ? Map.of() : request.arguments()))
                .build();
    }

    private CallToolResult call(String name, Handler handler, UUID tenant, Map<String, Object> arguments) {
        try {
            // As StorableRequestText holds a REST body: every string and key, at any depth, before a tool reads one.
            StorableText.requireIn("", json.valueToTree(arguments));
            Object result = handler.handle(tenant, arguments);
            Object tree = json.convertValue(result, Object.class);
            return CallToolResult.builder()
                    .addTextContent(json.writeValueAsString(tree))
                    .structuredContent(tree)
                    .build();
        } catch (ApiProblem problem) {
            return toolError(problemBody(problem));
        } catch (RuntimeException e) {
            return toolError(unexpected("tool " + name, e));
        }
    }

    private CallToolResult toolError(Map<String, Object> body) {
        return CallToolResult.builder()
                .isError(true)
                .addTextContent(json.writeValueAsString(body))
                .build();
    }

    /** A refusal as the REST API's problem body has it: what kind, why, and the argument at fault. */
    private static Map<String, Object> problemBody(ApiProblem problem) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", problem.type());
        body.put("title", problem.title());
        body.put("detail", problem.getMessage());
        if (problem.field() != null) {
            body.put("field", problem.field());
        }
        return body;
    }

    /**
     * Logs a failure no check foresaw under a new incident id and returns what the caller sees of it:
     * the id only. Its message may quote SQL or name classes, which are for the log, not the agent.
     */
    private static Map<String, Object> unexpected(String what, RuntimeException e) {
        String incident = UUID.randomUUID().toString();
        log.error("MCP {} failed, incident {}", what, incident, e);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "internal-error");
        body.put("title", "Internal error");
        body.put("detail", "The request failed on our side; quote incident " + incident + " when reporting it.");
        body.put("incident", incident);
        return body;
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
