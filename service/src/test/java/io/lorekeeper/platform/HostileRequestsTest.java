package io.lorekeeper.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
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
import io.lorekeeper.support.TestFiles;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A sweep of malformed and hostile requests across every endpoint: wrong types, sizes, encodings,
 * control characters, ids, query syntax, broken framing. Each case states the status it must get
 * (and the field a problem must name, where one is at fault). Whatever the case, the service must
 * never answer 5xx, every 4xx must be problem+json, and nothing stored may change: a refused
 * request leaves no trace and an accepted read writes nothing. Every failing case is listed at once.
 */
@IntegrationTest
class HostileRequestsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Cheap enough to read after every case, so that a write is blamed on the case that made it. */
    private static final List<String> WATCHED = List.of("document", "question", "evaluation", "ingestion_stage");

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @LocalServerPort
    int port;

    private final String marker = UUID.randomUUID().toString().substring(0, 8);
    private UUID text;
    private UUID conversation;
    private UUID question;
    private UUID evaluation;
    private final UUID absent = UUID.randomUUID();

    /**
     * The concurrent section: eight identical uploads at once, as JSON and as files, and eight identical
     * appends. Each gets 200 or 202 naming the same one document (the unique content hash used to
     * surface as 500 for all but one), and the tenant ends up with exactly one document of that content.
     */
    @Test
    void identicalUploadsAtTheSameMomentMakeOneDocumentAndNo5xx() throws Exception {
        String text = "The lighthouse at Ardnamurchan " + UUID.randomUUID() + " was lit in 1849.";
        List<Api.Response> json =
                concurrently(8, () -> api.post("/v1/documents", Map.of("title", "Light", "text", text)));
        String file = "The pier at Tobermory " + UUID.randomUUID() + " was rebuilt in 1864.";
        List<Api.Response> files = concurrently(
                8,
                () -> api.upload(
                        "/v1/documents/files",
                        "pier.txt",
                        "text/plain",
                        file.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        Map.of()));

        for (List<Api.Response> responses : List.of(json, files)) {
            assertThat(responses)
                    .allSatisfy(r -> assertThat(r.status()).as(r.body()).isIn(200, 202));
            assertThat(responses.stream()
                            .map(r -> r.json().get("id").asString())
                            .distinct())
                    .as("every request names the one document")
                    .hasSize(1);
        }
        assertThat(jdbc.sql("SELECT count(*) FROM document_text WHERE text IN (?, ?)")
                        .params(text, file)
                        .query(Long.class)
                        .single())
                .isEqualTo(2);
    }

    private static List<Api.Response> concurrently(int n, java.util.concurrent.Callable<Api.Response> request)
            throws Exception {
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(n);
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            List<java.util.concurrent.Future<Api.Response>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(threads.submit(() -> {
                    start.await();
                    return request.call();
                }));
            }
            List<Api.Response> out = new ArrayList<>();
            for (var f : futures) {
                out.add(f.get());
            }
            return out;
        }
    }

    @Test
    void noHostileRequestGetsA5xxOrAnythingButAProblemOrChangesWhatIsStored() throws Exception {
        createFixtures();
        List<Case> cases = cases();
        Set<String> distinct = new HashSet<>();
        for (Case c : cases) {
            assertThat(distinct.add(c.identity()))
                    .as("case listed twice: " + c.describe())
                    .isTrue();
        }
        assertThat(cases).as("cases in the sweep").hasSizeGreaterThanOrEqualTo(300);

        StoredState stored = new StoredState(jdbc, "HostileRequestsTest");
        stored.awaitQuiet();
        Map<String, String> before = stored.snapshot();
        List<String> failures = new ArrayList<>();
        Map<String, String> watched = stored.snapshot(WATCHED);
        long started = System.nanoTime();
        for (Case c : cases) {
            RawHttp.Response response;
            try {
                response = c.send(port);
            } catch (IOException e) {
                failures.add(c.describe() + "\n    -> no response: " + e);
                continue;
            }
            String wrong = c.judge(response);
            Map<String, String> now = stored.snapshot(WATCHED);
            if (!now.equals(watched)) {
                wrong = (wrong == null ? "" : wrong + "; ") + "changed what is stored: "
                        + StoredState.changed(watched, now);
                watched = now;
            }
            if (wrong != null) {
                failures.add(c.describe() + "\n    -> " + wrong + "\n    got " + response.status() + " "
                        + response.header("Content-Type") + " " + excerpt(response.body(), 300));
            }
        }
        Map<String, String> after = stored.snapshot();
        System.out.println("[HostileRequestsTest] sent " + cases.size() + " malformed or hostile requests in "
                + (System.nanoTime() - started) / 1_000_000 + " ms; " + failures.size() + " failed");

        assertThat(failures)
                .as(failures.size() + " of " + cases.size() + " hostile requests were mishandled:\n"
                        + String.join("\n", failures))
                .isEmpty();
        assertThat(after).as("what is stored, before and after the sweep").isEqualTo(before);
    }

    // ---------------------------------------------------------------------------------------------
    // Fixtures: one of each thing a request can name, finished before the sweep starts.

    private void createFixtures() {
        String body = "The lighthouse keeper of Nareth Point was Oswin Clay " + marker
                + ". He kept the lamp for forty years.\n\n"
                + "The village baker sold rye bread every morning; her name was Della Fenn.";
        text = api.ingest(TestDocuments.aText(body).titled("Hostile " + marker).build());
        conversation = api.ingest(TestDocuments.aConversation()
                .titled("Hostile chat " + marker)
                .session("1 May 2023", "Ann", "I adopted a grey cat called Miso " + marker + ".", "Bob", "Lovely!")
                .build());
        JsonNode asked = api.ask(Map.of("documentIds", List.of(text), "question", "Who kept the lighthouse?"));
        question = UUID.fromString(asked.path("id").asString());
        Api.Response started = api.post(
                "/v1/evaluations",
                Map.of(
                        "dataset",
                        "jsonl",
                        "strategies",
                        List.of("search:keyword"),
                        "items",
                        List.of(Map.of(
                                "id",
                                "keeper",
                                "question",
                                "Who kept the lighthouse?",
                                "answer",
                                "Oswin Clay",
                                "document",
                                Map.of("title", "Hostile " + marker, "text", body)))));
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        JsonNode finished = api.awaitFinished(started.header("Location"), Duration.ofMinutes(2));
        assertThat(finished.path("status").asString()).as(finished.toString()).isEqualTo("DONE");
        evaluation = UUID.fromString(finished.path("id").asString());
    }

    // ---------------------------------------------------------------------------------------------
    // The cases.

    private List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        malformedBodies(cases);
        documentBodies(cases);
        uploads(cases);
        sessionBodies(cases);
        reindexBodies(cases);
        searchBodies(cases);
        searchSyntax(cases);
        questionBodies(cases);
        evaluationBodies(cases);
        ids(cases);
        parameters(cases);
        routesAndHeaders(cases);
        framing(cases);
        return cases;
    }

    /** Bodies that are not the JSON an endpoint reads, sent to every endpoint that reads JSON. */
    private void malformedBodies(List<Case> cases) {
        Map<String, String> endpoints = new LinkedHashMap<>();
        endpoints.put("/v1/documents", "text");
        endpoints.put("/v1/documents/" + conversation + "/sessions", "sessions");
        endpoints.put("/v1/search", "query");
        endpoints.put("/v1/questions", "question");
        endpoints.put("/v1/evaluations", "dataset");
        endpoints.put("/v1/documents/" + absent + "/reindex", null);
        endpoints.forEach((path, required) -> {
            // reindex takes an optional body and names a document that does not exist: a body it can read gets 404
            int readable = required == null ? 404 : 400;
            cases.add(json("POST", path, "").expect(required == null ? 404 : 400));
            cases.add(json("POST", path, "null").expect(readable));
            cases.add(json("POST", path, "{}").expect(readable, required));
            cases.add(
                    json("POST", path, "{\"unknown\": 1, \"zzz\": \"\\u0000\"}").expect(readable, required));
            for (String broken : List.of(
                    "[]",
                    "\"a string\"",
                    "42",
                    "true",
                    "{",
                    "{\"a\":",
                    "{\"a\" 1}",
                    "{'a': 1}",
                    "{a: 1}",
                    "{\"a\": 1,}",
                    "{} {}",
                    "{\"a\": tru}",
                    "{\"a\": NaN}",
                    "{\"a\": 01}",
                    "{\"a\": \"\\x41\"}",
                    "{\"a\": \"\\u00G0\"}",
                    "}",
                    "{\"a\": [1, 2}",
                    "{\"a\": \"unterminated}",
                    "\uFEFF\uFEFF{}")) {
                cases.add(json("POST", path, broken).expect(400));
            }
            // Raw bytes go into a key: the parser skips an unknown field's value without decoding it, never a key.
            for (byte[] raw : List.of(
                    new byte[] {0},
                    new byte[] {1},
                    new byte[] {0x1B},
                    new byte[] {(byte) 0xC3, 0x28},
                    new byte[] {(byte) 0xFF, (byte) 0xFE},
                    new byte[] {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80})) {
                cases.add(json("POST", path, bytes("{\"k", raw, "\": 1}")).expect(400));
            }
            cases.add(json("POST", path, "[".repeat(100_000)).expect(400));
            cases.add(json("POST", path, "{\"a\":".repeat(100_000)).expect(400));
            cases.add(json("POST", path, "{\"a\": " + "9".repeat(5_000) + "}").expect(400));
            cases.add(json("POST", path, "{\"" + "k".repeat(60_000) + "\": 1}").expect(400));
            cases.add(json("POST", path, "{").chunked().expect(400));
            cases.add(json("POST", path, "{}").contentType("text/plain").expect(415));
            cases.add(json("POST", path, "<a/>").contentType("application/xml").expect(415));
            cases.add(json("POST", path, "a=1")
                    .contentType("application/x-www-form-urlencoded")
                    .expect(415));
            cases.add(json("POST", path, "{}").contentType(null).expect(415));
            cases.add(json("POST", path, "{}").contentType("garbage").expect(415));
            cases.add(json("POST", path, "{}")
                    .contentType("application/json; charset=bogus-charset")
                    .expect(415));
            cases.add(
                    json("POST", path, "{}").contentType("multipart/form-data").expect(400, "Content-Type"));
        });
    }

    private void documentBodies(List<Case> cases) {
        String ok = "A short text " + marker + " for hostile requests.";
        Function<Object, Case> doc = body -> jsonOf("POST", "/v1/documents", body);
        cases.add(doc.apply(Map.of("text", "before\0after")).expect(400, "text"));
        cases.add(doc.apply(Map.of("text", "\0")).expect(400, "text"));
        cases.add(json("POST", "/v1/documents", "{\"text\": \"lone \\ud800 surrogate\"}")
                .expect(400, "text"));
        cases.add(json("POST", "/v1/documents", "{\"text\": \"reversed \\udc00\\ud800 pair\"}")
                .expect(400, "text"));
        cases.add(json(
                        "POST",
                        "/v1/documents",
                        bytes(
                                "{\"text\": \"encoded ",
                                new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                                " surrogate\"}"))
                .expect(400, "text"));
        cases.add(doc.apply(Map.of("text", "")).expect(400, "text"));
        cases.add(doc.apply(Map.of("text", " \n\t\r\n ")).expect(400, "text"));
        cases.add(json("POST", "/v1/documents", "{\"text\": []}").expect(400, "text"));
        cases.add(json("POST", "/v1/documents", "{\"text\": {}}").expect(400, "text"));
        cases.add(json("POST", "/v1/documents", "{\"text\": null}").expect(400, "text"));
        // An empty list counts as absent (generated clients send one); a real conversation beside the text is refused.
        cases.add(doc.apply(Map.of(
                        "text",
                        ok,
                        "sessions",
                        List.of(Map.of("turns", List.of(Map.of("speaker", "A", "text", "hi"))))))
                .expect(400, "sessions"));
        cases.add(doc.apply(Map.of("text", ok, "title", "t\0")).expect(400, "title"));
        cases.add(doc.apply(Map.of("text", ok, "title", "x".repeat(501))).expect(400, "title"));
        cases.add(json("POST", "/v1/documents", "{\"text\": \"" + ok + "\", \"title\": {}}")
                .expect(400, "title"));
        cases.add(json("POST", "/v1/documents", "{\"text\": \"" + ok + "\", \"title\": [\"a\"]}")
                .expect(400, "title"));
        cases.add(doc.apply(Map.of("text", ok, "profile", "nope")).expect(400, "profile"));
        cases.add(doc.apply(Map.of("text", ok, "profile", "standard\0")).expect(400, "profile"));
        cases.add(json("POST", "/v1/documents", "{\"text\": \"" + ok + "\", \"profile\": [1]}")
                .expect(400, "profile"));
        cases.add(doc.apply(Map.of("text", ok, "metadata", Map.of("source", "a\0b")))
                .expect(400, "metadata.source"));
        cases.add(doc.apply(Map.of("text", ok, "metadata", Map.of("s\0urce", "ab")))
                .expect(400, "metadata.s\0urce"));
        cases.add(doc.apply(Map.of("text", ok, "metadata", Map.of("tags", List.of("ok", "b\0d"))))
                .expect(400, "metadata.tags[1]"));
        cases.add(doc.apply(Map.of("text", ok, "metadata", Map.of("a", Map.of("b", Map.of("c", "\0")))))
                .expect(400, "metadata.a.b.c"));
        cases.add(json("POST", "/v1/documents", "{\"text\": \"" + ok + "\", \"metadata\": {\"a\": \"\\ud800\"}}")
                .expect(400, "metadata.a"));
        cases.add(json("POST", "/v1/documents", "{\"text\": \"" + ok + "\", \"metadata\": \"str\"}")
                .expect(400, "metadata"));
        cases.add(json("POST", "/v1/documents", "{\"text\": \"" + ok + "\", \"metadata\": [1, 2]}")
                .expect(400, "metadata"));
        cases.add(doc.apply(Map.of("text", ok, "metadata", Map.of("big", "x".repeat(20_000))))
                .expect(400, "metadata"));
        cases.add(json("POST", "/v1/documents", "{\"sessions\": \"x\"}").expect(400, "sessions"));
        cases.add(json("POST", "/v1/documents", "{\"sessions\": [null]}").expect(400, "sessions[0]"));
        cases.add(json("POST", "/v1/documents", "{\"sessions\": []}").expect(400, "sessions"));
        // A conversation without a single turn is refused as a whole.
        cases.add(json("POST", "/v1/documents", "{\"sessions\": [{}]}").expect(400, "sessions"));
        cases.add(json("POST", "/v1/documents", "{\"sessions\": [{\"turns\": null}]}")
                .expect(400, "sessions"));
        cases.add(json("POST", "/v1/documents", "{\"sessions\": [{\"turns\": [null]}]}")
                .expect(400, "sessions[0].turns[0]"));
        cases.add(json("POST", "/v1/documents", "{\"sessions\": [{\"turns\": [{\"speaker\": \"A\"}]}]}")
                .expect(400, "sessions[0].turns[0].text"));
        cases.add(json("POST", "/v1/documents", "{\"sessions\": [{\"turns\": [{\"text\": \"hi\"}]}]}")
                .expect(400, "sessions[0].turns[0].speaker"));
        cases.add(doc.apply(Map.of(
                        "sessions", List.of(Map.of("turns", List.of(Map.of("speaker", "A", "text", "h\0i"))))))
                .expect(400, "sessions[0].turns[0].text"));
        cases.add(doc.apply(Map.of(
                        "sessions", List.of(Map.of("turns", List.of(Map.of("speaker", "A\0", "text", "hi"))))))
                .expect(400, "sessions[0].turns[0].speaker"));
        cases.add(doc.apply(Map.of(
                        "sessions",
                        List.of(Map.of("turns", List.of(Map.of("id", "D\0", "speaker", "A", "text", "hi"))))))
                .expect(400, "sessions[0].turns[0].id"));
        cases.add(doc.apply(Map.of(
                        "sessions",
                        List.of(Map.of("id", "s\0", "turns", List.of(Map.of("speaker", "A", "text", "hi"))))))
                .expect(400, "sessions[0].id"));
        cases.add(doc.apply(Map.of(
                        "sessions",
                        List.of(Map.of("dateTime", "\0", "turns", List.of(Map.of("speaker", "A", "text", "hi"))))))
                .expect(400, "sessions[0].dateTime"));
        cases.add(doc.apply(Map.of(
                        "sessions",
                        List.of(Map.of(
                                "turns",
                                List.of(
                                        Map.of("id", "D1", "speaker", "A", "text", "hi"),
                                        Map.of("id", "D1", "speaker", "B", "text", "ho"))))))
                .expect(400, "sessions[0].turns[1].id"));
        cases.add(json("POST", "/v1/documents", "{\"text\": \"chunked \\u0000 nul\"}")
                .chunked()
                .expect(400, "text"));
    }

    private void uploads(List<Case> cases) {
        String ok = "An uploaded text " + marker + ".";
        cases.add(upload("notes.txt", "text/plain", "before\0after".getBytes(StandardCharsets.UTF_8), Map.of())
                .expect(400, "file"));
        cases.add(upload("notes.txt", "text/plain", new byte[] {'a', (byte) 0xC3, 0x28}, Map.of())
                .expect(400, "file"));
        cases.add(upload("notes.txt", "text/plain", new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, Map.of())
                .expect(400, "file"));
        cases.add(upload("notes.txt", "text/plain", new byte[0], Map.of()).expect(400, "file"));
        cases.add(upload("notes.txt", "text/plain", " \n\t ".getBytes(StandardCharsets.UTF_8), Map.of())
                .expect(400, "file"));
        cases.add(upload("notes.pdf", "application/pdf", utf8(ok), Map.of()).expect(415, "file"));
        cases.add(upload("notes.txt", "image/png", utf8(ok), Map.of()).expect(415, "file"));
        files(cases, ok);
        cases.add(upload("notes", "text/plain", utf8(ok), Map.of()).expect(415, "file"));
        cases.add(upload("notes.txt", "text/plain; charset=\"", utf8(ok), Map.of())
                .expect(415, "file"));
        // Tomcat's parser refuses the file name itself, before any part is named: the body is at fault.
        cases.add(upload("n\0tes.txt", "text/plain", utf8(ok), Map.of()).expect(400, "body"));
        cases.add(upload("notes.txt", "text/plain", utf8(ok), Map.of("title", "t\0"))
                .expect(400, "title"));
        cases.add(upload("notes.txt", "text/plain", utf8(ok), Map.of("title", "x".repeat(501)))
                .expect(400, "title"));
        cases.add(upload("notes.txt", "text/plain", utf8(ok), Map.of("profile", "nope"))
                .expect(400, "profile"));
        cases.add(upload("notes.txt", "text/plain", utf8(ok), Map.of("metadata", "not json"))
                .expect(400, "metadata"));
        cases.add(upload("notes.txt", "text/plain", utf8(ok), Map.of("metadata", "[1, 2]"))
                .expect(400, "metadata"));
        cases.add(upload("notes.txt", "text/plain", utf8(ok), Map.of("metadata", "{\"a\": \"\\u0000\"}"))
                .expect(400, "metadata.a"));
        cases.add(upload(
                        "notes.txt",
                        "text/plain",
                        utf8(ok),
                        Map.of("metadata", "{\"a\": \"" + "x".repeat(20_000) + "\"}"))
                .expect(400, "metadata"));
        cases.add(upload("notes.txt", "text/plain", utf8(ok), Map.of("metadata", "{\"a\": 1} trailing"))
                .expect(400, "metadata"));
        String boundary = "lk-hostile";
        String type = "multipart/form-data; boundary=" + boundary;
        cases.add(raw("POST", "/v1/documents/files", "no parts at all")
                .contentType(type)
                .expect(400, "file"));
        cases.add(raw(
                        "POST",
                        "/v1/documents/files",
                        "--" + boundary
                                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\n"
                                + "unterminated part")
                .contentType(type)
                .expect(400, "body"));
        cases.add(raw(
                        "POST",
                        "/v1/documents/files",
                        "--" + boundary + "\r\nno colon in this header\r\n\r\nx\r\n--" + boundary + "--\r\n")
                .contentType(type)
                .expect(400, "file"));
        cases.add(raw(
                        "POST",
                        "/v1/documents/files",
                        "--" + boundary + "\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nT\r\n--" + boundary
                                + "--\r\n")
                .contentType(type)
                .expect(400, "file"));
        cases.add(raw(
                        "POST",
                        "/v1/documents/files",
                        "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
                                + "X-Long: " + "h".repeat(20_000) + "\r\n\r\nx\r\n--" + boundary + "--\r\n")
                .contentType(type)
                .expect(413, "fileName"));
        cases.add(upload(
                        "notes.txt",
                        "text/plain",
                        utf8(ok),
                        Map.of("metadata", "{\"a\": \"" + "x".repeat(5_000_000) + "\"}"))
                .expect(400, "metadata"));
        cases.add(upload("notes.txt", "text/plain", utf8(ok), Map.of("title", "T".repeat(3_000_000)))
                .expect(400, "title"));
        String filePart = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\n" + ok + "\r\n";
        cases.add(raw(
                        "POST",
                        "/v1/documents/files",
                        filePart + filePart.replace(ok, ok + " again") + "--" + boundary + "--\r\n")
                .contentType(type)
                .expect(400, "file"));
        for (String field : List.of("title", "profile", "metadata")) {
            String value = field.equals("metadata") ? "{}" : field.equals("profile") ? "standard" : "One";
            String part = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + field + "\"\r\n\r\n" + value
                    + "\r\n";
            cases.add(raw("POST", "/v1/documents/files", filePart + part + part + "--" + boundary + "--\r\n")
                    .contentType(type)
                    .expect(400, field));
        }
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            many.append("--")
                    .append(boundary)
                    .append("\r\nContent-Disposition: form-data; name=\"p")
                    .append(i)
                    .append("\"\r\n\r\nv\r\n");
        }
        cases.add(raw("POST", "/v1/documents/files", many + "--" + boundary + "--\r\n")
                .contentType(type)
                .expect(413));
        cases.add(raw(
                        "POST",
                        "/v1/documents/files",
                        "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
                                + "Content-Type: text/plain\r\n\r\nchunked \0 upload\r\n--" + boundary + "--\r\n")
                .contentType(type)
                .chunked()
                .expect(400, "file"));
        cases.add(raw("POST", "/v1/documents/files", "")
                .contentType("multipart/form-data; boundary=")
                .expect(400));
        cases.add(new Case("POST", "/v1/documents/files")
                .header("Content-Type", type)
                .chunked()
                .body(padded(
                        "--" + boundary
                                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\n",
                        30L * 1024 * 1024,
                        "\r\n--" + boundary + "--\r\n"))
                .expect(413));
        cases.add(new Case("POST", "/v1/documents/files")
                .header("Content-Type", type)
                .body(padded(
                        "--" + boundary
                                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\n",
                        26L * 1024 * 1024,
                        "\r\n--" + boundary + "--\r\n"))
                .expect(413, "file"));
    }

    /** Files that are not what they say, or that a parser must not be let loose on: refused naming the file. */
    private void files(List<Case> cases, String ok) {
        List<List<String>> pages = List.of(List.of(ok), List.of("A second page " + marker + "."));
        String pdf = "application/pdf";
        String docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
        cases.add(upload("locked.pdf", pdf, TestFiles.pdf(pages, "secret"), Map.of())
                .expect(400, "file"));
        cases.add(upload("scan.pdf", pdf, TestFiles.scannedPdf(2), Map.of()).expect(400, "file"));
        cases.add(upload("report.docx", docx, TestFiles.pdf(pages), Map.of()).expect(415, "file"));
        cases.add(
                upload("report.pdf", pdf, TestFiles.docx(List.of(ok)), Map.of()).expect(415, "file"));
        cases.add(upload("book.epub", "application/octet-stream", TestFiles.pdf(pages), Map.of())
                .expect(415, "file"));
        cases.add(upload("pictures.docx", docx, TestFiles.docx(List.of(ok), 250), Map.of())
                .expect(400, "file"));
        cases.add(upload("bomb.docx", docx, TestFiles.docx(List.of("a".repeat(30_000_000))), Map.of())
                .expect(400, "file"));
        byte[] big = new byte[21 * 1024 * 1024];
        Arrays.fill(big, (byte) ' ');
        System.arraycopy(utf8("%PDF-1.4\n"), 0, big, 0, 9);
        cases.add(upload("big.pdf", pdf, big, Map.of()).expect(413, "file"));
        cases.add(upload("broken.pdf", pdf, utf8("%PDF-1.4\n" + ok), Map.of()).expect(400, "file"));
    }

    private void sessionBodies(List<Case> cases) {
        String path = "/v1/documents/" + conversation + "/sessions";
        Map<String, Object> turn = Map.of("speaker", "Ann", "text", "One more thing " + marker);
        cases.add(jsonOf(
                        "POST",
                        "/v1/documents/" + text + "/sessions",
                        Map.of("sessions", List.of(Map.of("turns", List.of(turn)))))
                .expect(409));
        cases.add(jsonOf("POST", path, Map.of("sessions", List.of())).expect(400, "sessions"));
        cases.add(json("POST", path, "{\"sessions\": null}").expect(400, "sessions"));
        cases.add(json("POST", path, "{\"sessions\": [null]}").expect(400, "sessions[0]"));
        cases.add(json("POST", path, "{\"sessions\": [{\"turns\": []}]}").expect(400, "sessions"));
        cases.add(json("POST", path, "{\"sessions\": {\"turns\": []}}").expect(400, "sessions"));
        cases.add(jsonOf(
                        "POST",
                        path,
                        Map.of("sessions", List.of(Map.of("turns", List.of(Map.of("speaker", "Ann", "text", "a\0b"))))))
                .expect(400, "sessions[0].turns[0].text"));
        cases.add(jsonOf(
                        "POST",
                        path,
                        Map.of("sessions", List.of(Map.of("turns", List.of(Map.of("speaker", " ", "text", "ab"))))))
                .expect(400, "sessions[0].turns[0].speaker"));
        cases.add(jsonOf(
                        "POST",
                        path,
                        Map.of(
                                "sessions",
                                List.of(Map.of(
                                        "turns",
                                        List.of(Map.of(
                                                "id",
                                                "D1:1",
                                                "speaker",
                                                "Ann",
                                                "text",
                                                "a clash with a stored turn id"))))))
                .expect(400, "sessions[0].turns[0].id"));
        cases.add(json("POST", path, "{\"sessions\": [{\"turns\": [{\"speaker\": \"Ann\", \"text\": \"\\udfff\"}]}]}")
                .expect(400, "sessions[0].turns[0].text"));
    }

    private void reindexBodies(List<Case> cases) {
        String path = "/v1/documents/" + text + "/reindex";
        cases.add(jsonOf("POST", path, Map.of("stages", List.of("nope"))).expect(400, "stages"));
        cases.add(jsonOf("POST", path, Map.of("stages", List.of("embed\0"))).expect(400, "stages[0]"));
        cases.add(json("POST", path, "{\"stages\": [null]}").expect(400, "stages"));
        cases.add(json("POST", path, "{\"stages\": [1]}").expect(400, "stages"));
        cases.add(json("POST", path, "{\"stages\": \"embed\"}").expect(400, "stages"));
        cases.add(json("POST", path, "{\"stages\": {\"a\": 1}}").expect(400, "stages"));
        cases.add(json("POST", path, "{\"stages\": [\"" + "s".repeat(10_000) + "\"]}")
                .expect(400, "stages"));
    }

    private void searchBodies(List<Case> cases) {
        List<UUID> docs = List.of(text);
        Function<Map<String, Object>, Case> search = extra -> {
            Map<String, Object> body = new LinkedHashMap<>(Map.of("documentIds", docs, "query", "lighthouse"));
            body.putAll(extra);
            return jsonOf("POST", "/v1/search", body);
        };
        cases.add(search.apply(Map.of("query", "light\0house")).expect(400, "query"));
        cases.add(json("POST", "/v1/search", "{\"documentIds\": [\"" + text + "\"], \"query\": \"\\ud83d\"}")
                .expect(400, "query"));
        cases.add(search.apply(Map.of("query", "")).expect(400, "query"));
        cases.add(search.apply(Map.of("query", " \t\n")).expect(400, "query"));
        cases.add(search.apply(Map.of("query", "a".repeat(4001))).expect(400, "query"));
        cases.add(json("POST", "/v1/search", "{\"documentIds\": [\"" + text + "\"], \"query\": [\"a\"]}")
                .expect(400, "query"));
        cases.add(json("POST", "/v1/search", "{\"documentIds\": [\"" + text + "\"], \"query\": {\"$ne\": 1}}")
                .expect(400, "query"));
        cases.add(search.apply(Map.of("mode", "nope")).expect(400, "mode"));
        cases.add(search.apply(Map.of("mode", "keyword\0")).expect(400, "mode"));
        cases.add(search.apply(Map.of("mode", "KEYWORD; DROP TABLE chunk")).expect(400, "mode"));
        for (Object k : List.of(0, -1, 101, Integer.MAX_VALUE, Integer.MIN_VALUE)) {
            cases.add(search.apply(Map.of("k", k)).expect(400, "k"));
        }
        cases.add(
                json("POST", "/v1/search", "{\"documentIds\": [\"" + text + "\"], \"query\": \"a\", \"k\": 2147483648}")
                        .expect(400, "k"));
        cases.add(json("POST", "/v1/search", "{\"documentIds\": [\"" + text + "\"], \"query\": \"a\", \"k\": \"ten\"}")
                .expect(400, "k"));
        cases.add(json("POST", "/v1/search", "{\"documentIds\": [\"" + text + "\"], \"query\": \"a\", \"k\": 1e400}")
                .expect(400, "k"));
        cases.add(json("POST", "/v1/search", "{\"documentIds\": [\"" + text + "\"], \"query\": \"a\", \"k\": [5]}")
                .expect(400, "k"));
        for (Object window : List.of(-1, 11, 1_000_000)) {
            cases.add(search.apply(Map.of("window", window)).expect(400, "window"));
        }
        cases.add(search.apply(Map.of("documentIds", List.of("not-a-uuid"))).expect(400, "documentIds[0]"));
        cases.add(search.apply(Map.of("documentIds", List.of(absent))).expect(404));
        cases.add(search.apply(Map.of("documentIds", List.of(question))).expect(404));
        cases.add(search.apply(Map.of("documentIds", "x")).expect(400, "documentIds"));
        cases.add(json("POST", "/v1/search", "{\"documentIds\": [null], \"query\": \"a\"}")
                .expect(400, "documentIds[0]"));
        // An id is read as a UUID, not kept as text: the UUID reader trims control characters, so this is the
        // document's id.
        cases.add(json("POST", "/v1/search", "{\"documentIds\": [\"" + text + "\\u0000\"], \"query\": \"a\"}")
                .expect(200));
        List<String> thousands = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            thousands.add(UUID.randomUUID().toString());
        }
        cases.add(search.apply(Map.of("documentIds", thousands)).expect(404, "documentIds"));
    }

    /** Text that full-text and vector search must treat as words, never as syntax: each is an ordinary search. */
    private void searchSyntax(List<Case> cases) {
        List<String> queries = List.of(
                "&&",
                "||",
                "'",
                "''",
                "\"",
                ":*",
                "lighthouse:*",
                "!",
                "!!keeper",
                "!(",
                "(",
                ")",
                "()",
                "<->",
                "lighthouse <-> keeper",
                "lighthouse & !keeper",
                "a | b & !c",
                "keeper:A",
                "\\",
                "\\\\'",
                "%",
                "_%",
                "*",
                "-- comment",
                "/* x */",
                "'; DROP TABLE document; --",
                "$$ $$",
                "lighthouse' OR '1'='1",
                "\u200B\u200E\u202E",
                "\u0001\u0002\u001F",
                "🦀 lighthouse 🦀",
                "ǅ ŉ ﬁ ẞ",
                "a".repeat(4000),
                "lighthouse ".repeat(300).strip(),
                "NOT AND OR",
                "\"unterminated phrase",
                "keeper-of-the-light",
                "x:*&y:*|!z");
        for (String query : queries) {
            for (String mode : List.of("keyword", "hybrid")) {
                cases.add(
                        jsonOf("POST", "/v1/search", Map.of("documentIds", List.of(text), "query", query, "mode", mode))
                                .expect(200));
            }
        }
        for (String query : List.of("'", ":*", "!", "&&", "\u0001")) {
            cases.add(
                    jsonOf("POST", "/v1/search", Map.of("documentIds", List.of(text), "query", query, "mode", "vector"))
                            .expect(200));
        }
    }

    private void questionBodies(List<Case> cases) {
        Function<Map<String, Object>, Case> ask = extra -> {
            Map<String, Object> body =
                    new LinkedHashMap<>(Map.of("documentIds", List.of(text), "question", "Who kept the lamp?"));
            body.putAll(extra);
            return jsonOf("POST", "/v1/questions", body);
        };
        cases.add(ask.apply(Map.of("question", "who\0")).expect(400, "question"));
        cases.add(json("POST", "/v1/questions", "{\"documentIds\": [\"" + text + "\"], \"question\": \"\\udbff?\"}")
                .expect(400, "question"));
        cases.add(ask.apply(Map.of("question", "")).expect(400, "question"));
        cases.add(ask.apply(Map.of("question", "   ")).expect(400, "question"));
        cases.add(ask.apply(Map.of("question", "q".repeat(100_000))).expect(400, "question"));
        cases.add(json("POST", "/v1/questions", "{\"documentIds\": [\"" + text + "\"], \"question\": [\"a\"]}")
                .expect(400, "question"));
        cases.add(ask.apply(Map.of("strategy", "nope")).expect(400, "strategy"));
        cases.add(ask.apply(Map.of("strategy", "extractive\0")).expect(400, "strategy"));
        cases.add(ask.apply(Map.of("strategy", "gam")).expect(400, "strategy"));
        cases.add(ask.apply(Map.of("strategy", "../extractive")).expect(400, "strategy"));
        cases.add(ask.apply(Map.of("choices", List.of("only one"))).expect(400, "choices"));
        cases.add(json(
                        "POST",
                        "/v1/questions",
                        "{\"documentIds\": [\"" + text + "\"], \"question\": \"q\", \"choices\": [\"a\", null]}")
                .expect(400, "choices[1]"));
        cases.add(ask.apply(Map.of("choices", List.of("a", "b\0"))).expect(400, "choices[1]"));
        cases.add(ask.apply(Map.of("choices", List.of("a", " "))).expect(400, "choices[1]"));
        cases.add(ask.apply(Map.of("choices", java.util.Collections.nCopies(27, "c")))
                .expect(400, "choices"));
        cases.add(ask.apply(Map.of("choices", List.of("a", "c".repeat(2001)))).expect(400, "choices[1]"));
        cases.add(ask.apply(Map.of("choices", "a,b")).expect(400, "choices"));
        for (String options : List.of(
                "{\"k\": null}", "{\"budget\": null}", "{\"budget\": {\"maxCalls\": null}}", "{\"hops\": null}")) {
            String field = "options."
                    + options.replaceAll("[{}\" ]", "").replace(":null", "").replace(":", ".");
            cases.add(json(
                            "POST",
                            "/v1/questions",
                            "{\"documentIds\": [\"" + text + "\"], \"question\": \"q\", \"options\": " + options + "}")
                    .expect(400, field));
        }
        cases.add(ask.apply(Map.of("options", Map.of("nope", 1))).expect(400, "options.nope"));
        cases.add(ask.apply(Map.of("options", Map.of("k", "ten"))).expect(400, "options.k"));
        cases.add(ask.apply(Map.of("options", Map.of("k", -1))).expect(400, "options.k"));
        cases.add(ask.apply(Map.of("options", Map.of("k", 1.5))).expect(400, "options.k"));
        cases.add(ask.apply(Map.of("options", Map.of("k", Long.MAX_VALUE))).expect(400, "options.k"));
        cases.add(ask.apply(Map.of("options", Map.of("k\0", 1))).expect(400, "options.k\0"));
        cases.add(ask.apply(Map.of("options", Map.of("budget", "lots"))).expect(400, "options.budget"));
        cases.add(ask.apply(Map.of("options", Map.of("budget", Map.of("maxCalls", -5))))
                .expect(400, "options.budget.maxCalls"));
        cases.add(json(
                        "POST",
                        "/v1/questions",
                        "{\"documentIds\": [\"" + text + "\"], \"question\": \"q\", \"options\": \"k=5\"}")
                .expect(400, "options"));
        cases.add(json(
                        "POST",
                        "/v1/questions",
                        "{\"documentIds\": [\"" + text + "\"], \"question\": \"q\", \"options\": [1]}")
                .expect(400, "options"));
        for (Object wait : List.of(-1, 61, Integer.MAX_VALUE)) {
            cases.add(ask.apply(Map.of("waitSeconds", wait)).expect(400, "waitSeconds"));
        }
        cases.add(json(
                        "POST",
                        "/v1/questions",
                        "{\"documentIds\": [\"" + text + "\"], \"question\": \"q\", \"waitSeconds\": \"soon\"}")
                .expect(400, "waitSeconds"));
        cases.add(json(
                        "POST",
                        "/v1/questions",
                        "{\"documentIds\": [\"" + text + "\"], \"question\": \"q\", \"waitSeconds\": 1e10}")
                .expect(400, "waitSeconds"));
        cases.add(ask.apply(Map.of("documentIds", List.of("x"))).expect(400, "documentIds[0]"));
        cases.add(ask.apply(Map.of("documentIds", List.of(absent))).expect(404));
        cases.add(ask.apply(Map.of("documentIds", "all")).expect(400, "documentIds"));
        cases.add(ask.apply(Map.of("documentIds", java.util.Collections.nCopies(51, text)))
                .expect(400, "documentIds"));
        cases.add(json("POST", "/v1/questions", "{\"documentIds\": [null], \"question\": \"q\"}")
                .expect(400, "documentIds[0]"));
        cases.add(ask.apply(Map.of("documentIds", List.of())).expect(400, "documentIds"));
    }

    private void evaluationBodies(List<Case> cases) {
        Function<Map<String, Object>, Case> start = fields -> {
            Map<String, Object> body = new LinkedHashMap<>(
                    Map.of("dataset", "locomo", "path", "locomo10.json", "strategies", List.of("extractive")));
            body.putAll(fields);
            return jsonOf("POST", "/v1/evaluations", body);
        };
        Map<String, Object> item = Map.of(
                "id",
                "i1",
                "question",
                "Who kept the lamp?",
                "answer",
                "Oswin Clay",
                "document",
                Map.of("text", "Oswin Clay " + marker + " kept the lamp."));
        Function<Map<String, Object>, Case> inline = fields -> {
            Map<String, Object> body = new LinkedHashMap<>(
                    Map.of("dataset", "jsonl", "items", List.of(item), "strategies", List.of("extractive")));
            body.putAll(fields);
            return jsonOf("POST", "/v1/evaluations", body);
        };
        cases.add(start.apply(Map.of("dataset", "nope")).expect(400, "dataset"));
        cases.add(start.apply(Map.of("dataset", "locomo\0")).expect(400, "dataset"));
        for (String path : List.of("x\0y", "locomo10.json\0.txt")) {
            cases.add(start.apply(Map.of("path", path)).expect(400, "path"));
        }
        for (String path : List.of(
                "../../etc/passwd",
                "/etc/passwd",
                "..",
                "../",
                "a/../../b",
                "%2e%2e/%2e%2e/etc/passwd",
                "~/.ssh/id_rsa",
                "",
                " ",
                "x".repeat(5_000),
                "file:///etc/passwd",
                "\\..\\..\\windows",
                "data/../../..")) {
            cases.add(start.apply(Map.of("path", path)).expect(400, "path"));
        }
        // The parser decodes the overlong form C0 AF as '/': the traversal it spells is refused like any other.
        byte[] slash = {(byte) 0xC0, (byte) 0xAF};
        cases.add(json(
                        "POST",
                        "/v1/evaluations",
                        bytes(
                                "{\"dataset\": \"locomo\", \"strategies\": [\"extractive\"], \"path\": \"..",
                                slash,
                                "..\"}"))
                .expect(400, "path"));
        cases.add(json(
                        "POST",
                        "/v1/evaluations",
                        "{\"dataset\": \"locomo\", \"path\": 5, \"strategies\": [\"extractive\"]}")
                .expect(400, "path"));
        cases.add(json(
                        "POST",
                        "/v1/evaluations",
                        "{\"dataset\": \"locomo\", \"path\": [\"a\"], \"strategies\": [\"extractive\"]}")
                .expect(400, "path"));
        cases.add(start.apply(Map.of("items", List.of(item))).expect(400, "items"));
        cases.add(inline.apply(Map.of("items", List.of(Map.of()))).expect(400, "items"));
        cases.add(json(
                        "POST",
                        "/v1/evaluations",
                        "{\"dataset\": \"jsonl\", \"items\": [null], \"strategies\": [\"extractive\"]}")
                .expect(400, "items"));
        cases.add(inline.apply(Map.of(
                        "items",
                        List.of(Map.of("id", "i\0", "question", "q", "answer", "a", "document", Map.of("text", "t")))))
                .expect(400, "items[0].id"));
        cases.add(inline.apply(Map.of("strategies", List.of())).expect(400, "strategies"));
        cases.add(inline.apply(Map.of("strategies", List.of("nope"))).expect(400, "strategies[0]"));
        cases.add(
                inline.apply(Map.of("strategies", List.of("extractive", "gam"))).expect(400, "strategies[1]"));
        cases.add(inline.apply(Map.of("strategies", List.of("extractive", "extractive")))
                .expect(400, "strategies[1]"));
        cases.add(inline.apply(Map.of("strategies", List.of("search:nope"))).expect(400, "strategies[0]"));
        cases.add(json(
                        "POST",
                        "/v1/evaluations",
                        "{\"dataset\": \"jsonl\", \"items\": " + JSON.writeValueAsString(List.of(item))
                                + ", \"strategies\": [\"extractive\", null]}")
                .expect(400, "strategies[1]"));
        cases.add(inline.apply(Map.of("strategies", "extractive")).expect(400, "strategies"));
        for (Object concurrency : List.of(0, -1, Integer.MIN_VALUE)) {
            cases.add(inline.apply(Map.of("concurrency", concurrency)).expect(400, "concurrency"));
        }
        for (Object searchK : List.of(0, -3, 101)) {
            cases.add(inline.apply(Map.of("searchK", searchK)).expect(400, "searchK"));
        }
        cases.add(inline.apply(Map.of("limit", -1)).expect(400, "limit"));
        cases.add(inline.apply(Map.of("limit", "all")).expect(400, "limit"));
        cases.add(inline.apply(Map.of("judge", true)).expect(400, "judge"));
        cases.add(inline.apply(Map.of("judge", "maybe")).expect(400, "judge"));
        cases.add(json(
                        "POST",
                        "/v1/evaluations",
                        "{\"dataset\": \"jsonl\", \"items\": " + JSON.writeValueAsString(List.of(item))
                                + ", \"strategies\": [\"extractive\"], \"options\": {\"extractive\": null}}")
                .expect(400, "options.extractive"));
        cases.add(json(
                        "POST",
                        "/v1/evaluations",
                        "{\"dataset\": \"jsonl\", \"items\": " + JSON.writeValueAsString(List.of(item))
                                + ", \"strategies\": [\"extractive\"], \"options\": {\"extractive\": {\"k\": null}}}")
                .expect(400, "options.extractive.k"));
        cases.add(inline.apply(Map.of("options", Map.of("extractive", Map.of("nope", 1))))
                .expect(400, "options.extractive.nope"));
        cases.add(inline.apply(Map.of("options", Map.of("extractive", "k=1"))).expect(400, "options.extractive"));
    }

    /** Malformed, absent and path-like ids on every endpoint that takes one. */
    private void ids(List<Case> cases) {
        Map<String, String> endpoints = new LinkedHashMap<>();
        String session = "{\"sessions\": [{\"turns\": [{\"speaker\": \"A\", \"text\": \"hi\"}]}]}";
        endpoints.put("GET /v1/documents/{id}", null);
        endpoints.put("DELETE /v1/documents/{id}", null);
        endpoints.put("GET /v1/documents/{id}/text", null);
        endpoints.put("GET /v1/documents/{id}/turns", null);
        endpoints.put("GET /v1/documents/{id}/graph", null);
        endpoints.put("POST /v1/documents/{id}/sessions", session);
        endpoints.put("POST /v1/documents/{id}/reindex", "");
        endpoints.put("GET /v1/questions/{id}", null);
        endpoints.put("GET /v1/questions/{id}/trace", null);
        endpoints.put("GET /v1/questions/{id}/events", null);
        endpoints.put("POST /v1/questions/{id}/retry", "");
        endpoints.put("GET /v1/evaluations/{id}", null);
        endpoints.put("POST /v1/evaluations/{id}/retry", "");
        List<String> malformed = List.of(
                "not-a-uuid",
                "1",
                "-1",
                "null",
                "%20",
                "%0A",
                "%F0%9F%92%A9",
                "%7B" + absent + "%7D",
                "%27%20OR%20%271%27%3D%271",
                "00000000-0000-0000-0000-00000000000G",
                "x".repeat(2_000));
        // Paths the container refuses before any route is matched: the request as a whole is at fault, not a field.
        List<String> unroutable = List.of("%00", "%C3%28", "..%2F..%2Fetc%2Fpasswd", "%ZZ", "%u0000");
        List<String> absentIds = List.of(absent.toString(), "00000000-0000-0000-0000-000000000000", "1-1-1-1-1");
        endpoints.forEach((endpoint, body) -> {
            String method = endpoint.substring(0, endpoint.indexOf(' '));
            String template = endpoint.substring(endpoint.indexOf(' ') + 1);
            for (String id : malformed) {
                cases.add(withBody(method, template.replace("{id}", id), body).expect(400, "id"));
            }
            for (String id : absentIds) {
                cases.add(withBody(method, template.replace("{id}", id), body).expect(404));
            }
            for (String id : unroutable) {
                cases.add(withBody(method, template.replace("{id}", id), body).expect(400));
            }
        });
        cases.add(new Case("POST", "/v1/questions/" + question + "/retry").expect(409));
        cases.add(new Case("POST", "/v1/evaluations/" + evaluation + "/retry").expect(409));
        cases.add(new Case("GET", "/v1/questions/" + text).expect(404));
        cases.add(new Case("GET", "/v1/evaluations/" + question).expect(404));
        cases.add(new Case("GET", "/v1/documents/" + question).expect(404));
    }

    private void parameters(List<Case> cases) {
        for (String page : List.of("-1", "abc", "99999999999", "1.5", "1e3", "%00", "%E2%80%8B")) {
            cases.add(new Case("GET", "/v1/documents?page=" + page).expect(400, "page"));
        }
        for (String size : List.of("0", "-5", "201", "abc", "2147483648", "%00", "20%00")) {
            cases.add(new Case("GET", "/v1/documents?size=" + size).expect(400, "size"));
        }
        cases.add(new Case("GET", "/v1/documents?page=2147483647&size=200").expect(200));
        // Spring reads integers as Java literals do (0x10 is 16) and a repeated parameter by its first value.
        cases.add(new Case("GET", "/v1/documents?page=0x10").expect(200));
        cases.add(new Case("GET", "/v1/documents?page=1&page=2").expect(200));
        cases.add(new Case("GET", "/v1/documents?" + "p=1&".repeat(1_500) + "page=0").expect(400, "query"));
        cases.add(new Case("GET", "/v1/documents?foo=%00").expect(400, "foo"));
        cases.add(new Case("GET", "/v1/strategies?foo=%00").expect(400, "foo"));
        cases.add(new Case("GET", "/v1/documents?%00=1").expect(400));
        cases.add(new Case("GET", "/v1/documents?page=%ZZ").expect(400));
        String textPath = "/v1/documents/" + text + "/text";
        for (String start : List.of("-1", "-2147483648", "999999999", "abc", "%00", "1.0", "99999999999")) {
            cases.add(new Case("GET", textPath + "?start=" + start).expect(400, "start"));
        }
        for (String end : List.of("-1", "999999999", "x", "2147483648")) {
            cases.add(new Case("GET", textPath + "?end=" + end).expect(400, "end"));
        }
        cases.add(new Case("GET", textPath + "?start=5&end=2").expect(400, "end"));
        cases.add(new Case("GET", textPath + "?start=0&end=0").expect(200));
        cases.add(new Case("GET", textPath + "?start=3&end=3&start=4").expect(200));
        for (String from : List.of(
                "garbage",
                "2024-13-45T00:00:00Z",
                "2024-01-01",
                "1700000000",
                "%00",
                "+999999999-12-31T23:59:59Z",
                "-999999999-01-01T00:00:00Z",
                "2024-01-01T00:00:00",
                "now()")) {
            cases.add(new Case("GET", "/v1/usage?from=" + from.replace("+", "%2B")).expect(400, "from"));
        }
        for (String to : List.of("yesterday", "%00", "+999999999-12-31T23:59:59Z", "2024-02-30T00:00:00Z")) {
            cases.add(new Case("GET", "/v1/usage?to=" + to.replace("+", "%2B")).expect(400, "to"));
        }
        cases.add(new Case("GET", "/v1/usage?from=2024-01-02T00:00:00Z&to=2024-01-01T00:00:00Z").expect(400, "from"));
        cases.add(new Case("GET", "/v1/usage?from=2024-01-01T00:00:00Z&to=2024-01-01T00:00:00Z").expect(400, "from"));
        cases.add(new Case("GET", "/v1/usage?from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59Z").expect(200));
        cases.add(
                new Case("GET", "/v1/usage?from=2024-01-01T00:00:00Z&to=%2B294277-01-01T00:00:00Z").expect(400, "to"));
        for (String lastEventId : List.of("abc", "-5", "99999999999999", "1 OR 1=1", "%00")) {
            cases.add(new Case("GET", "/v1/questions/" + question + "/events")
                    .header("Accept", "text/event-stream")
                    .header("Last-Event-ID", lastEventId)
                    .expect(200));
        }
    }

    private void routesAndHeaders(List<Case> cases) {
        for (String route : List.of(
                "PUT /v1/documents",
                "PATCH /v1/documents/" + text,
                "DELETE /v1/documents",
                "GET /v1/search",
                "PUT /v1/questions",
                "GET /v1/evaluations",
                "POST /v1/usage",
                "POST /v1/strategies",
                "DELETE /v1/questions/" + question,
                "PUT /v1/evaluations/" + evaluation,
                "POST /v1/documents/" + text + "/text",
                "FOO /v1/documents",
                "TRACE /v1/documents",
                "PROPFIND /v1/documents")) {
            cases.add(new Case(route.substring(0, route.indexOf(' ')), route.substring(route.indexOf(' ') + 1))
                    .expect(405));
        }
        for (String path : List.of(
                "/v1/nope",
                "/v2/documents",
                "/v1/documents/",
                "/v1/documents/" + text + "/nope",
                "/v1//documents",
                "/v1/documents/..;/..;/etc/passwd",
                "/v1/documents/%2e%2e/%2e%2e/etc/passwd",
                "/WEB-INF/web.xml",
                "/v1/documents/" + text + "/text/../../../../etc/passwd",
                "/actuator/nope",
                "/v1/documents/" + text + ";jsessionid=x/turns/x",
                "/" + "a".repeat(6_000),
                "/error",
                "/error/x")) {
            cases.add(new Case("GET", path).expect(404));
        }
        cases.add(new Case("GET", "/../../etc/passwd").expect(400));
        cases.add(new Case("GET", "/v1/../../etc/passwd").expect(400));
        cases.add(new Case("GET", "/%2e%2e/%2e%2e/etc/passwd").expect(400));
        cases.add(new Case("GET", "/v1/%00").expect(400));
        cases.add(new Case("GET", "/v1/documents\\..\\..\\etc\\passwd").expect(400));
        cases.add(jsonOf("POST", "/v1/search", Map.of("query", ""))
                .header("Accept", "application/xml")
                .expect(400, "query"));
        cases.add(jsonOf("POST", "/v1/search", Map.of("query", ""))
                .header("Accept", "text/html")
                .expect(400, "query"));
        cases.add(jsonOf("POST", "/v1/search", Map.of("query", ""))
                .header("Accept", "garbage/")
                .expect(400, "query"));
        cases.add(new Case("GET", "/v1/documents/" + absent)
                .header("Accept", "text/event-stream")
                .expect(404));
        cases.add(new Case("GET", "/v1/questions/" + absent + "/events")
                .header("Accept", "text/event-stream")
                .expect(404));
        // The events endpoint produces only text/event-stream: a client that accepts only JSON is told so before the id
        // is read.
        cases.add(new Case("GET", "/v1/questions/not-a-uuid/events")
                .header("Accept", "application/json")
                .expect(406));
        cases.add(new Case("GET", "/v1/documents")
                .header("X-Huge", "h".repeat(20_000))
                .expect(400));
        cases.add(new Case("GET", "/v1/documents").header("X-Nul", "a\0b").expect(400));
        cases.add(new Case("GET", "/v1/documents").header("Bad Name", "x").expect(400));
        cases.add(new Case("GET", "/v1/documents").header("X-Ctl", "a\u0001b").expect(400));
    }

    /** Bodies whose framing lies: lengths that do not match, chunking that breaks, both at once. */
    private void framing(List<Case> cases) {
        String search = "{\"documentIds\": [\"" + text + "\"], \"query\": \"lighthouse\"}";
        cases.add(raw("POST", "/v1/search", "{\"query\"")
                .contentType("application/json")
                .header("Content-Length", "500")
                .halfClose()
                .expect(400));
        cases.add(raw("POST", "/v1/search", search)
                .contentType("application/json")
                .header("Content-Length", "-1")
                .expect(400));
        cases.add(raw("POST", "/v1/search", search)
                .contentType("application/json")
                .header("Content-Length", "abc")
                .expect(400));
        cases.add(raw("POST", "/v1/search", search)
                .contentType("application/json")
                .header("Content-Length", "5")
                .header("Content-Length", "7")
                .expect(400));
        cases.add(raw("POST", "/v1/search", "zz\r\n" + search + "\r\n0\r\n\r\n")
                .contentType("application/json")
                .header("Transfer-Encoding", "chunked")
                .expect(400));
        cases.add(raw("POST", "/v1/search", "5\r\n{\"que\r\n")
                .contentType("application/json")
                .header("Transfer-Encoding", "chunked")
                .halfClose()
                .expect(400));
        cases.add(raw("POST", "/v1/search", Integer.toHexString(search.length()) + "\r\n" + search + "\r\n0\r\n\r\n")
                .contentType("application/json")
                .header("Transfer-Encoding", "chunked")
                .header("Content-Length", "3")
                .expect(200)); // RFC 9112 6.3: the chunked framing overrides the length, and the search itself is valid
        cases.add(raw("POST", "/v1/search", "ffffffffffffffff\r\n{}")
                .contentType("application/json")
                .header("Transfer-Encoding", "chunked")
                .halfClose()
                .expect(400));
        cases.add(new Case("POST", "/v1/documents")
                .header("Content-Type", "application/json")
                .header("Content-Length", "999999999999")
                .expect(413, "body"));
        cases.add(new Case("POST", "/v1/documents")
                .header("Content-Type", "application/json")
                .chunked()
                .body(padded("{\"text\": \"a\"", 129L * 1024 * 1024, "}"))
                .expect(413, "body"));
        cases.add(new Case("POST", "/v1/questions")
                .header("Content-Type", "application/json")
                .chunked()
                .body(padded("{\"question\": \"q\"", 129L * 1024 * 1024, "}"))
                .expect(413, "body"));
    }

    // ---------------------------------------------------------------------------------------------
    // Building cases.

    private static Case json(String method, String path, String body) {
        return json(method, path, utf8(body));
    }

    private static Case json(String method, String path, byte[] body) {
        return new Case(method, path).header("Content-Type", "application/json").body(body);
    }

    private static Case jsonOf(String method, String path, Object body) {
        return json(method, path, JSON.writeValueAsBytes(body));
    }

    private static Case raw(String method, String path, String body) {
        return new Case(method, path).body(body.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static Case withBody(String method, String path, String body) {
        return body == null
                ? new Case(method, path)
                : body.isEmpty() ? new Case(method, path).header("Content-Length", "0") : json(method, path, body);
    }

    private static Case upload(String filename, String contentType, byte[] content, Map<String, String> fields) {
        String boundary = "lk-hostile-upload";
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        fields.forEach((name, value) -> body.writeBytes(utf8("--" + boundary
                + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n")));
        body.writeBytes(utf8("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
                + filename + "\"\r\nContent-Type: " + contentType + "\r\n\r\n"));
        body.writeBytes(content);
        body.writeBytes(utf8("\r\n--" + boundary + "--\r\n"));
        return new Case("POST", "/v1/documents/files")
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .body(body.toByteArray());
    }

    private static byte[] bytes(String before, byte[] middle, String after) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(utf8(before));
        out.writeBytes(middle);
        out.writeBytes(utf8(after));
        return out.toByteArray();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A body of {@code prefix}, then {@code spaces} spaces streamed without holding them, then {@code suffix}. */
    private static Padded padded(String prefix, long spaces, String suffix) {
        return new Padded(prefix, spaces, suffix);
    }

    private record Padded(String prefix, long spaces, String suffix) implements RawHttp.Body {
        long length() {
            return utf8(prefix).length + spaces + utf8(suffix).length;
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            out.write(utf8(prefix));
            byte[] block = new byte[64 * 1024];
            Arrays.fill(block, (byte) ' ');
            for (long left = spaces; left > 0; left -= block.length) {
                out.write(block, 0, (int) Math.min(block.length, left));
            }
            out.write(utf8(suffix));
        }
    }

    private static String excerpt(String s, int max) {
        String flat =
                s == null ? "" : s.replace("\0", "\\0").replace("\r", "\\r").replace("\n", "\\n");
        return flat.length() > max ? flat.substring(0, max) + "… (" + s.length() + " chars)" : flat;
    }

    /** One request and what it must get back. */
    private static final class Case {
        private final String method;
        private final String target;
        private final List<String[]> headers = new ArrayList<>();
        private byte[] bytes;
        private Padded padded;
        private boolean chunked;
        private boolean halfClose;
        private int status;
        private String field;

        Case(String method, String target) {
            this.method = method;
            this.target = target;
        }

        Case header(String name, String value) {
            headers.add(new String[] {name, value});
            return this;
        }

        Case contentType(String type) {
            headers.removeIf(h -> h[0].equalsIgnoreCase("Content-Type"));
            return type == null ? this : header("Content-Type", type);
        }

        Case body(byte[] body) {
            this.bytes = body;
            return this;
        }

        Case body(Padded body) {
            this.padded = body;
            return this;
        }

        Case chunked() {
            this.chunked = true;
            return this;
        }

        Case halfClose() {
            this.halfClose = true;
            return this;
        }

        Case expect(int status) {
            return expect(status, null);
        }

        Case expect(int status, String field) {
            this.status = status;
            this.field = field;
            return this;
        }

        private boolean framedByCase() {
            return headers.stream()
                    .anyMatch(
                            h -> h[0].equalsIgnoreCase("Content-Length") || h[0].equalsIgnoreCase("Transfer-Encoding"));
        }

        RawHttp.Response send(int port) throws IOException {
            StringBuilder head = new StringBuilder(
                    method + " " + encodeControl(target) + " HTTP/1.1\r\nHost: localhost\r\nConnection: close");
            for (String[] h : headers) {
                head.append("\r\n").append(h[0]).append(": ").append(h[1]);
            }
            RawHttp.Body body = padded != null ? padded : bytes == null ? null : out -> out.write(bytes);
            if (chunked) {
                head.append("\r\nTransfer-Encoding: chunked");
            } else if (body != null && !framedByCase()) {
                head.append("\r\nContent-Length: ").append(padded != null ? padded.length() : bytes.length);
            }
            return RawHttp.send(port, head.toString(), body, chunked, halfClose);
        }

        /** The request target as sent: raw bytes except that a case never puts a line break into the request line. */
        private static String encodeControl(String target) {
            return target.replace("\r", "%0D").replace("\n", "%0A");
        }

        /** What is wrong with {@code response} for this case, or null when it is right. */
        String judge(RawHttp.Response response) {
            List<String> wrong = new ArrayList<>();
            if (response.status() >= 500 || response.status() < 0) {
                wrong.add("server error");
            } else if (response.status() != status) {
                wrong.add("expected " + status);
            }
            if (response.status() >= 400 && response.status() < 500) {
                String type = response.header("Content-Type");
                if (type == null || !type.startsWith("application/problem+json")) {
                    wrong.add("a 4xx that is not problem+json");
                } else {
                    JsonNode problem;
                    try {
                        problem = JSON.readTree(response.body());
                    } catch (RuntimeException e) {
                        problem = null;
                    }
                    if (problem == null || problem.path("status").asInt() != response.status()) {
                        wrong.add("a problem body without its status");
                    } else if (field != null
                            && !field.equals(problem.path("field").asString(null))) {
                        wrong.add("expected field '" + excerpt(field, 60) + "'");
                    }
                }
            }
            return wrong.isEmpty() ? null : String.join("; ", wrong);
        }

        String identity() {
            return method + " " + target + " "
                    + headers.stream().map(h -> h[0] + "=" + h[1]).toList() + " "
                    + (bytes == null ? "" : Arrays.hashCode(bytes) + "/" + bytes.length)
                    + (padded == null ? "" : padded.toString())
                    + (chunked ? " chunked" : "") + (halfClose ? " half-closed" : "");
        }

        String describe() {
            String body = padded != null
                    ? padded.prefix() + "<" + padded.spaces() + " spaces>" + padded.suffix()
                    : bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
            return method + " " + excerpt(target, 120) + (chunked ? " (chunked)" : "") + " " + excerpt(body, 160)
                    + headers.stream()
                            .map(h -> " [" + h[0] + ": " + excerpt(h[1], 60) + "]")
                            .reduce("", String::concat)
                    + " => want " + status + (field == null ? "" : " field " + excerpt(field, 60));
        }
    }
}
