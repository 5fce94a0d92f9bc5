package io.lorekeeper.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import io.lorekeeper.support.StoredState;
import io.lorekeeper.support.TestDocuments;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sweep of {@code HostileRequestsTest}, over MCP: NUL characters and lone surrogates in every
 * string argument of every tool, oversized texts, titles, queries and questions, wrong types,
 * out-of-range numbers, bad ids, and malformed resource URIs. Each must be refused as a tool error
 * (or, for a resource read or an unknown tool, a JSON-RPC error) naming the argument at fault, must
 * not show SQL, Java class names or stack frames, and nothing stored may change. Every failing case
 * is listed at once.
 */
@IntegrationTest
class HostileMcpRequestsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** What no reply may hold: SQL, the database's own words, Java's, a stack frame, a parse failure's. */
    private static final List<String> LEAKS = List.of(
            "SELECT",
            "INSERT",
            "UPDATE ",
            "DELETE ",
            "ERROR:",
            "SQL",
            "tsvector",
            "java.",
            "jakarta.",
            "org.",
            "io.lorekeeper",
            "tools.jackson",
            "Exception",
            "\tat ",
            "For input string");
    /** As a case's JSON-RPC error code: any code will do. */
    private static final int ANY_CODE = 0;
    /** Cheap enough to read after every case, so that a write is blamed on the case that made it. */
    private static final List<String> WATCHED = List.of("document", "question", "ingestion_stage");
    /** The strings no text can be stored with, and how they are named. */
    private static final Map<String, String> UNSTORABLE = Map.of(
            "NUL", "a\0b",
            "NUL first", "\0",
            "lone high surrogate", "a\uD800b",
            "lone low surrogate", "\uDC00z",
            "reversed pair", "\uDE00\uD83D");

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @LocalServerPort
    int port;

    private final String marker = UUID.randomUUID().toString().substring(0, 8);
    private final UUID absent = UUID.randomUUID();
    private UUID text;
    private int textLength;
    private UUID question;
    private RawSession raw;

    @Test
    void noHostileToolCallOrResourceReadLeaksInternalsOrChangesWhatIsStored() throws Exception {
        createFixtures();
        List<Case> cases = cases();
        Set<String> distinct = new HashSet<>();
        for (Case c : cases) {
            assertThat(distinct.add(c.what()))
                    .as("case listed twice: " + c.what())
                    .isTrue();
        }
        assertThat(cases).as("cases in the sweep").hasSizeGreaterThanOrEqualTo(100);

        StoredState stored = new StoredState(jdbc, "HostileMcpRequestsTest");
        stored.awaitQuiet();
        Map<String, String> before = stored.snapshot();
        Map<String, String> watched = stored.snapshot(WATCHED);
        List<String> failures = new ArrayList<>();
        raw = new RawSession(port);
        try (McpSyncClient client = connect()) {
            for (Case c : cases) {
                Object outcome;
                try {
                    outcome = c.call().apply(client);
                } catch (RuntimeException e) {
                    outcome = rpcError(e);
                }
                String wrong = c.judge(outcome);
                Map<String, String> now = stored.snapshot(WATCHED);
                if (!now.equals(watched)) {
                    wrong = (wrong == null ? "" : wrong + "; ") + "changed what is stored: "
                            + StoredState.changed(watched, now);
                    watched = now;
                }
                if (wrong != null) {
                    failures.add(excerpt(c.what(), 200) + "\n    -> " + wrong + "\n    got "
                            + excerpt(describe(outcome), 400));
                }
            }
        }
        Map<String, String> after = stored.snapshot();
        System.out.println(
                "[HostileMcpRequestsTest] sent " + cases.size() + " hostile MCP calls; " + failures.size() + " failed");

        assertThat(failures)
                .as(failures.size() + " of " + cases.size() + " hostile MCP calls were mishandled:\n"
                        + String.join("\n", failures))
                .isEmpty();
        assertThat(after).as("what is stored, before and after the sweep").isEqualTo(before);
    }

    private void createFixtures() {
        String body = "The keeper of Calder Light was Ines Morrow " + marker + ". She trimmed the wick at dusk.";
        text = api.ingest(
                TestDocuments.aText(body).titled("Hostile MCP " + marker).build());
        textLength = body.length();
        JsonNode asked = api.ask(Map.of("documentIds", List.of(text), "question", "Who kept Calder Light?"));
        question = UUID.fromString(asked.path("id").asString());
    }

    /**
     * A client whose JSON escapes every non-ASCII character: a lone surrogate then travels as the
     * escape {@code \uD800}, as a JavaScript client sends it, rather than as the {@code ?} an
     * encoder puts in its place.
     */
    private McpSyncClient connect() {
        JsonMapper escaping =
                JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://localhost:" + port)
                        .endpoint("/mcp")
                        .jsonMapper(new JacksonMcpJsonMapper(escaping))
                        .build())
                .requestTimeout(Duration.ofSeconds(120))
                .build();
        client.initialize();
        return client;
    }

    // ---------------------------------------------------------------------------------------------
    // The cases.

    private List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        unstorableStrings(cases);
        oversized(cases);
        wrongTypes(cases);
        badIds(cases);
        resources(cases);
        malformedRequests(cases);
        cases.add(new Case(
                "an unknown tool",
                c -> c.callTool(new McpSchema.CallToolRequest("drop_tables", Map.of())),
                McpSchema.ErrorCodes.INVALID_PARAMS,
                null,
                null));
        return cases;
    }

    /** Arguments each tool would accept: every case spoils one of them. */
    private Map<String, Map<String, Object>> validArguments() {
        Map<String, Map<String, Object>> valid = new LinkedHashMap<>();
        valid.put("list_documents", Map.of("limit", 5));
        valid.put(
                "add_text_document",
                Map.of("text", "A note " + marker + " on the tides.", "title", "Note", "profile", "retrieval-only"));
        valid.put(
                "add_file",
                Map.of(
                        "content",
                        base64("Harbour dues " + marker + " rose in March."),
                        "fileName",
                        "dues.txt",
                        "title",
                        "Dues",
                        "profile",
                        "retrieval-only"));
        valid.put("search", Map.of("documentIds", List.of(text.toString()), "query", "keeper", "k", 3));
        valid.put(
                "ask_question",
                Map.of(
                        "documentIds",
                        List.of(text.toString()),
                        "question",
                        "Who trimmed the wick?",
                        "strategy",
                        "extractive",
                        "waitSeconds",
                        0));
        valid.put("get_answer", Map.of("questionId", question.toString()));
        return valid;
    }

    /** Every string argument of every tool, and an argument's name, with each string that cannot be stored. */
    private void unstorableStrings(List<Case> cases) {
        validArguments()
                .forEach((tool, arguments) -> arguments.forEach((name, value) -> {
                    UNSTORABLE.forEach((kind, bad) -> {
                        if (value instanceof String) {
                            cases.add(toolCase(tool, kind + " in " + name, with(arguments, name, bad), name));
                        } else if (value instanceof List<?>) {
                            cases.add(toolCase(
                                    tool,
                                    kind + " in " + name + "[1]",
                                    with(arguments, name, List.of(text.toString(), bad)),
                                    name + "[1]"));
                        }
                    });
                }));
        for (String tool : List.of("add_text_document", "search")) {
            UNSTORABLE.forEach((kind, bad) -> {
                String name = "x" + bad;
                // A name holding a lone surrogate has no UTF-8 form: the reply names it with '?' in its place.
                cases.add(toolCase(
                        tool,
                        kind + " in an argument's name",
                        with(validArguments().get(tool), name, "y"),
                        name.replaceAll("\\p{Cs}", "?")));
            });
        }
        // The strings inside a value the tools do not read (an unknown argument) are held to the rule too.
        cases.add(toolCase(
                "add_text_document",
                "NUL deep in an unknown argument",
                with(validArguments().get("add_text_document"), "extra", Map.of("tags", List.of("ok", "a\0b"))),
                "extra.tags[1]"));
    }

    private void oversized(List<Case> cases) {
        Map<String, Map<String, Object>> valid = validArguments();
        String title = "t".repeat(501);
        cases.add(toolCase(
                "add_text_document",
                "a 501-character title",
                with(valid.get("add_text_document"), "title", title),
                "title"));
        cases.add(toolCase("add_file", "a 501-character title", with(valid.get("add_file"), "title", title), "title"));
        cases.add(toolCase(
                "add_text_document",
                "a text over 20 MB",
                with(valid.get("add_text_document"), "text", "a".repeat(20 * 1024 * 1024 + 1)),
                "text"));
        cases.add(toolCase(
                "add_file",
                "a file over 20 MB",
                with(
                        valid.get("add_file"),
                        "content",
                        Base64.getEncoder().encodeToString(new byte[20 * 1024 * 1024 + 1])),
                "file"));
        cases.add(toolCase(
                "search", "a 4,001-character query", with(valid.get("search"), "query", "q".repeat(4001)), "query"));
        cases.add(toolCase(
                "search",
                "a 1.29 MB query",
                with(valid.get("search"), "query", "lighthouse ".repeat(117_000)),
                "query"));
        cases.add(toolCase(
                "ask_question",
                "a 4,001-character question",
                with(valid.get("ask_question"), "question", "q".repeat(4001)),
                "question"));
        cases.add(toolCase(
                "ask_question",
                "a 1.29 MB question",
                with(valid.get("ask_question"), "question", "who ".repeat(322_000)),
                "question"));
        cases.add(toolCase(
                "ask_question",
                "a 10,000-character strategy",
                with(valid.get("ask_question"), "strategy", "s".repeat(10_000)),
                "strategy"));
        cases.add(toolCase(
                "add_text_document",
                "a 10,000-character profile",
                with(valid.get("add_text_document"), "profile", "p".repeat(10_000)),
                "profile"));
        cases.add(toolCase(
                "search", "51 document ids", with(valid.get("search"), "documentIds", ids(51)), "documentIds"));
        cases.add(toolCase(
                "ask_question",
                "51 document ids",
                with(valid.get("ask_question"), "documentIds", ids(51)),
                "documentIds"));
    }

    private void wrongTypes(List<Case> cases) {
        Map<String, Map<String, Object>> valid = validArguments();
        List<Object> notWholeNumbers = List.of("5", 2.5, true, List.of(1), Map.of("n", 1));
        Map<String, List<Object>> outOfRange = Map.of(
                "limit", List.of(0, -1, 201, 1e12),
                "k", List.of(0, -3, 51, Long.MAX_VALUE),
                "waitSeconds", List.of(-1, 61, 1e300));
        Map<String, String> numberOf = Map.of("limit", "list_documents", "k", "search", "waitSeconds", "ask_question");
        numberOf.forEach((name, tool) -> {
            for (Object bad : notWholeNumbers) {
                cases.add(toolCase(tool, name + " = " + bad, with(valid.get(tool), name, bad), name));
            }
            for (Object bad : outOfRange.get(name)) {
                cases.add(
                        toolCase(tool, name + " = " + bad + " (out of range)", with(valid.get(tool), name, bad), name));
            }
        });
        valid.forEach((tool, arguments) -> arguments.forEach((name, value) -> {
            if (value instanceof String) {
                for (Object bad : List.of(5, List.of("x"), Map.of("x", "y"), false)) {
                    cases.add(toolCase(tool, name + " = " + bad, with(arguments, name, bad), name));
                }
            }
        }));
        for (String tool : List.of("search", "ask_question")) {
            for (Object bad : List.of("x", List.of(), Map.of(), 5)) {
                cases.add(toolCase(
                        tool, "documentIds = " + bad, with(valid.get(tool), "documentIds", bad), "documentIds"));
            }
            cases.add(toolCase(
                    tool, "documentIds[0] = 5", with(valid.get(tool), "documentIds", List.of(5)), "documentIds[0]"));
            cases.add(toolCase(
                    tool,
                    "documentIds[0] not an id",
                    with(valid.get(tool), "documentIds", List.of("lamp")),
                    "documentIds[0]"));
        }
        Map<String, List<String>> required = Map.of(
                "add_text_document", List.of("text"),
                "add_file", List.of("content", "fileName"),
                "search", List.of("documentIds", "query"),
                "ask_question", List.of("documentIds", "question"),
                "get_answer", List.of("questionId"));
        required.forEach((tool, names) -> {
            for (String name : names) {
                cases.add(toolCase(tool, name + " missing", without(valid.get(tool), name), name));
                if (!name.equals("documentIds")) {
                    cases.add(toolCase(tool, name + " blank", with(valid.get(tool), name, " \t\n"), name));
                }
            }
        });
        cases.add(toolCase(
                "add_file", "content not base64", with(valid.get("add_file"), "content", "not base64!"), "content"));
        cases.add(toolCase(
                "add_file", "a name without extension", with(valid.get("add_file"), "fileName", "dues"), "file"));
        cases.add(toolCase("add_file", "an executable", with(valid.get("add_file"), "fileName", "dues.exe"), "file"));
        cases.add(toolCase(
                "add_text_document",
                "an unknown profile",
                with(valid.get("add_text_document"), "profile", "fast"),
                "profile"));
        cases.add(toolCase(
                "ask_question",
                "an unknown strategy",
                with(valid.get("ask_question"), "strategy", "oracle"),
                "strategy"));
        cases.add(toolCase("get_answer", "questionId not an id", Map.of("questionId", "lamp"), "questionId"));
    }

    /** Ids of nothing: refused as not found, as the REST API answers 404. */
    private void badIds(List<Case> cases) {
        Map<String, Map<String, Object>> valid = validArguments();
        for (String tool : List.of("search", "ask_question")) {
            cases.add(notFound(
                    tool, "an unknown document", with(valid.get(tool), "documentIds", List.of(absent.toString()))));
            cases.add(notFound(
                    tool,
                    "a known and an unknown document",
                    with(valid.get(tool), "documentIds", List.of(text.toString(), absent.toString()))));
        }
        cases.add(notFound("get_answer", "an unknown question", Map.of("questionId", absent.toString())));
        cases.add(notFound("get_answer", "a document's id as a question's", Map.of("questionId", text.toString())));
    }

    private void resources(List<Case> cases) {
        String doc = "lorekeeper://documents/" + text + "/text";
        int n = textLength;
        Map<String, String> refusals = new LinkedHashMap<>();
        refusals.put(doc + "/abc/5", "start");
        refusals.put(doc + "/0/xyz", "end");
        refusals.put(doc + "/-1/5", "start");
        refusals.put(doc + "/+1/5", "start");
        refusals.put(doc + "/1.5/5", "start");
        refusals.put(doc + "/0x10/20", "start");
        refusals.put(doc + "/0/-0", "end");
        refusals.put(doc + "/99999999999/99999999999", "start");
        refusals.put(doc + "/0/99999999999", "end");
        refusals.put(doc + "/0/" + "9".repeat(40), "end");
        refusals.put(doc + "/2147483648/2147483648", "start");
        refusals.put(doc + "/5/2", "end");
        refusals.put(doc + "/0/" + (n + 1), "end");
        refusals.put(doc + "/" + (n + 1) + "/" + (n + 1), "start");
        refusals.put("lorekeeper://documents/lamp/text", "documentId");
        refusals.put("lorekeeper://documents/lamp/text/0/1", "documentId");
        UNSTORABLE.forEach((kind, bad) -> {
            refusals.put(doc + "/0" + bad + "/1", "uri");
            refusals.put("lorekeeper://documents/" + bad + "/text", "uri");
        });
        refusals.forEach((uri, field) -> cases.add(resourceCase(uri, McpSchema.ErrorCodes.INVALID_PARAMS, field)));
        for (String uri : List.of(
                "lorekeeper://documents/" + absent + "/text",
                "lorekeeper://documents/" + absent + "/text/0/1",
                doc + "/0/1/2",
                doc + "//",
                "lorekeeper://documents/" + text,
                "lorekeeper://nothing")) {
            cases.add(resourceCase(uri, McpSchema.ErrorCodes.RESOURCE_NOT_FOUND, null));
        }
    }

    /** Requests whose params have the wrong shape, which the SDK's client cannot send: refused, showing nothing. */
    private void malformedRequests(List<Case> cases) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("tools/call with arguments a string", Map.of("name", "search", "arguments", "x"));
        params.put("tools/call with arguments a list", Map.of("name", "search", "arguments", List.of(1)));
        params.put("tools/call with a number for a name", Map.of("name", 5));
        params.put("tools/call without a name", Map.of("arguments", Map.of()));
        params.put("tools/call with params a string", "search");
        params.put("resources/read without a uri", Map.of());
        params.put("resources/read with a number for a uri", Map.of("uri", 5));
        params.put("resources/read with params a list", List.of("lorekeeper://documents/" + text + "/text"));
        params.forEach((what, value) -> cases.add(new Case(
                what, c -> raw.request(what.substring(0, what.indexOf(' ')), value), ANY_CODE, null, null)));
        String ping = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}";
        Map<String, String> bodies = new LinkedHashMap<>();
        bodies.put("a body that is not JSON", "{\"jsonrpc\": ");
        bodies.put("a batch", "[" + ping + "]");
        bodies.put("a JSON string", "\"ping\"");
        bodies.put("two messages in one body", ping + ping);
        bodies.put(
                "ping with params a list", "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", \"params\": [1]}");
        bodies.put("a message without a method or id", "{\"jsonrpc\": \"2.0\"}");
        bodies.forEach(
                (what, body) -> cases.add(new Case(what, c -> raw.send(body, null, true), ANY_CODE, null, null)));
        cases.add(new Case("an unknown session", c -> raw.send(ping, "no-such-session", true), ANY_CODE, null, null));
        cases.add(new Case("no Accept header", c -> raw.send(ping, null, false), ANY_CODE, null, null));
    }

    // ---------------------------------------------------------------------------------------------
    // Building and judging cases.

    private static Case toolCase(String tool, String what, Map<String, Object> arguments, String field) {
        return new Case(
                tool + ": " + what, c -> c.callTool(new McpSchema.CallToolRequest(tool, arguments)), null, field, null);
    }

    private static Case notFound(String tool, String what, Map<String, Object> arguments) {
        return new Case(
                tool + ": " + what,
                c -> c.callTool(new McpSchema.CallToolRequest(tool, arguments)),
                null,
                null,
                "not-found");
    }

    private static Case resourceCase(String uri, int code, String field) {
        return new Case("read " + uri, c -> c.readResource(new McpSchema.ReadResourceRequest(uri)), code, field, null);
    }

    private static Map<String, Object> with(Map<String, Object> arguments, String name, Object value) {
        Map<String, Object> changed = new LinkedHashMap<>(arguments);
        changed.put(name, value);
        return changed;
    }

    private static Map<String, Object> without(Map<String, Object> arguments, String name) {
        Map<String, Object> changed = new LinkedHashMap<>(arguments);
        changed.remove(name);
        return changed;
    }

    private static List<String> ids(int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(UUID.randomUUID().toString());
        }
        return ids;
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The JSON-RPC error a call was answered with, or the failure itself when it was not one. */
    private static Object rpcError(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof McpError error && error.getJsonRpcError() != null) {
                return error.getJsonRpcError();
            }
        }
        return e;
    }

    private static String describe(Object outcome) {
        return switch (outcome) {
            case CallToolResult result -> "tool result isError=" + result.isError() + " " + text(result);
            case McpSchema.JSONRPCResponse.JSONRPCError error ->
                "JSON-RPC error " + error.code() + " " + error.message() + " " + error.data();
            default -> String.valueOf(outcome);
        };
    }

    private static String text(CallToolResult result) {
        return result.content().stream()
                .map(c -> c instanceof McpSchema.TextContent t ? t.text() : String.valueOf(c))
                .reduce("", String::concat);
    }

    /** {@code s} cut to {@code max} characters, control characters and surrogates escaped so that the report stays readable. */
    private static String excerpt(String s, int max) {
        StringBuilder flat = new StringBuilder();
        for (int i = 0; i < s.length() && i < max; i++) {
            char c = s.charAt(i);
            flat.append(c < 0x20 || Character.isSurrogate(c) ? String.format("\\u%04X", (int) c) : String.valueOf(c));
        }
        return s.length() > max ? flat + "… (" + s.length() + " chars)" : flat.toString();
    }

    /**
     * One call and the refusal it must get: a tool error when {@code rpcCode} is null, else a JSON-RPC
     * error with that code (any, for {@link #ANY_CODE}); naming {@code field} where one is given, of
     * {@code type} where one is given.
     */
    private record Case(String what, Function<McpSyncClient, Object> call, Integer rpcCode, String field, String type) {

        /** What is wrong with {@code outcome}, or null when it is right. */
        String judge(Object outcome) {
            List<String> wrong = new ArrayList<>();
            String said = describe(outcome);
            String named = null;
            String kind = null;
            if (rpcCode == null) {
                if (!(outcome instanceof CallToolResult result) || !Boolean.TRUE.equals(result.isError())) {
                    wrong.add("expected a tool error");
                } else {
                    JsonNode body = parse(text(result));
                    if (body == null) {
                        wrong.add("a tool error that is not a JSON problem");
                    } else {
                        named = body.path("field").asString(null);
                        kind = body.path("type").asString(null);
                    }
                }
            } else if (!(outcome instanceof McpSchema.JSONRPCResponse.JSONRPCError error)) {
                wrong.add("expected JSON-RPC error " + rpcCode);
            } else {
                if (rpcCode != ANY_CODE && !rpcCode.equals(error.code())) {
                    wrong.add("expected JSON-RPC error " + rpcCode);
                }
                if (error.data() instanceof Map<?, ?> data) {
                    named = data.get("field") instanceof String f ? f : null;
                    kind = data.get("type") instanceof String t ? t : null;
                }
            }
            if (field != null && !field.equals(named)) {
                wrong.add("expected field '" + excerpt(field, 60) + "'");
            }
            if (type != null && !type.equals(kind)) {
                wrong.add("expected type " + type);
            }
            if ("internal-error".equals(kind)) {
                wrong.add("an internal error");
            }
            for (String leak : LEAKS) {
                if (said.contains(leak)) {
                    wrong.add("shows '" + leak.strip() + "'");
                }
            }
            return wrong.isEmpty() ? null : String.join("; ", wrong);
        }

        private static JsonNode parse(String text) {
            try {
                return JSON.readTree(text);
            } catch (RuntimeException e) {
                return null;
            }
        }
    }

    /**
     * An MCP session spoken by hand over HTTP, for requests the SDK's client cannot send: it initializes
     * as a client does, then posts each request and reads the one reply from the event stream.
     */
    private static final class RawSession {
        private final HttpClient http = HttpClient.newHttpClient();
        private final URI endpoint;
        private final String session;
        private int nextId = 1;

        RawSession(int port) throws IOException, InterruptedException {
            endpoint = URI.create("http://localhost:" + port + "/mcp");
            HttpResponse<String> initialized = http.send(
                    post(
                            null,
                            JSON.writeValueAsString(Map.of(
                                    "jsonrpc",
                                    "2.0",
                                    "id",
                                    0,
                                    "method",
                                    "initialize",
                                    "params",
                                    Map.of(
                                            "protocolVersion",
                                            "2025-06-18",
                                            "capabilities",
                                            Map.of(),
                                            "clientInfo",
                                            Map.of("name", "raw", "version", "1")))),
                            true),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(200);
            session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
            HttpResponse<String> ready = http.send(
                    post(
                            session,
                            JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "method", "notifications/initialized")),
                            true),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ready.statusCode()).as(ready.body()).isEqualTo(202);
        }

        /** The reply to a request in this session: its JSON-RPC error, or what else came back. */
        Object request(String method, Object params) {
            Map<String, Object> message = new LinkedHashMap<>();
            message.put("jsonrpc", "2.0");
            message.put("id", nextId++);
            message.put("method", method);
            message.put("params", params);
            return exchange(post(session, JSON.writeValueAsString(message), true));
        }

        /** The reply to a body sent as it is, in this session or in {@code session}, with or without an Accept header. */
        Object send(String body, String session, boolean accept) {
            return exchange(post(session == null ? this.session : session, body, accept));
        }

        private Object exchange(HttpRequest request) {
            try {
                HttpResponse<java.util.stream.Stream<String>> response =
                        http.send(request, HttpResponse.BodyHandlers.ofLines());
                String body;
                try (java.util.stream.Stream<String> lines = response.body()) {
                    // a JSON body, or an event stream whose first data line is the reply
                    body = lines.filter(l -> !l.isBlank() && !l.startsWith("id:") && !l.startsWith("event:"))
                            .map(l -> l.startsWith("data:") ? l.substring(5) : l)
                            .collect(java.util.stream.Collectors.joining("\n"));
                }
                JsonNode reply;
                try {
                    reply = JSON.readTree(body);
                } catch (RuntimeException e) {
                    return "HTTP " + response.statusCode() + " " + body;
                }
                JsonNode error = reply.path("error");
                if (error.isObject()
                        && error.path("code").isInt()
                        && error.path("message").isString()) {
                    return new McpSchema.JSONRPCResponse.JSONRPCError(
                            error.path("code").asInt(),
                            error.path("message").asString(),
                            error.has("data") ? JSON.treeToValue(error.get("data"), Object.class) : null);
                }
                return "HTTP " + response.statusCode() + " " + reply;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        private HttpRequest post(String session, String body, boolean accept) {
            HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                    .timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            if (accept) {
                request.header("Accept", "application/json, text/event-stream");
            }
            if (session != null) {
                request.header("Mcp-Session-Id", session);
            }
            return request.build();
        }
    }
}
