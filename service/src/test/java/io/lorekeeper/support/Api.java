package io.lorekeeper.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small HTTP client for the service under test, speaking JSON like any client would. */
public class Api {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Environment environment;
    /** Sent as {@code Authorization: Bearer} with every request when set. */
    private final String key;

    Api(Environment environment) {
        this(environment, null);
    }

    private Api(Environment environment, String key) {
        this.environment = environment;
        this.key = key;
    }

    /** The same client, sending the API key with every request (for a service that requires keys). */
    public Api withKey(String key) {
        return new Api(environment, key);
    }

    public record Response(int status, java.net.http.HttpHeaders headers, String body) {
        public JsonNode json() {
            return JSON.readTree(body);
        }

        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    public URI uri(String path) {
        return URI.create("http://localhost:" + environment.getRequiredProperty("local.server.port") + path);
    }

    public Response get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    public Response delete(String path) {
        return send(HttpRequest.newBuilder(uri(path)).DELETE());
    }

    public Response post(String path, Object body) {
        return postRaw(path, "application/json", JSON.writeValueAsBytes(body));
    }

    public Response postRaw(String path, String contentType, byte[] body) {
        return send(HttpRequest.newBuilder(uri(path))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    /** A multipart/form-data upload with one file part and plain fields. */
    public Response upload(
            String path, String filename, String contentType, byte[] content, Map<String, String> fields) {
        String boundary = "lk-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        fields.forEach((name, value) -> write(
                body,
                "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value
                        + "\r\n"));
        write(
                body,
                "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + filename
                        + "\"\r\nContent-Type: " + contentType + "\r\n\r\n");
        body.writeBytes(content);
        write(body, "\r\n--" + boundary + "--\r\n");
        return postRaw(path, "multipart/form-data; boundary=" + boundary, body.toByteArray());
    }

    /**
     * Posts a document and waits until it is READY and its enrichment stages have settled (none
     * pending or running: done, skipped, or failed); returns its id.
     */
    public UUID ingest(Object document) {
        Response response = post("/v1/documents", document);
        assertThat(response.status()).as(response.body()).isIn(200, 202);
        UUID id = UUID.fromString(response.json().get("id").asString());
        awaitDocument(id, "READY", Duration.ofMinutes(3));
        return id;
    }

    /**
     * Waits for the status; READY also waits for the enrichment stages to settle, since they run
     * after the document is READY.
     */
    public JsonNode awaitDocument(UUID id, String status, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode doc;
        do {
            doc = get("/v1/documents/" + id).json();
            if (doc.get("status").asString().equals(status) && (!status.equals("READY") || settled(doc))) {
                return doc;
            }
            if (doc.get("status").asString().equals("READY") && !status.equals("READY")) {
                throw new AssertionError(
                        "document " + id + " ended " + doc.get("status") + " while waiting for " + status + ": " + doc);
            }
            if (doc.get("status").asString().equals("FAILED") && !status.equals("FAILED")) {
                throw new AssertionError(
                        "document " + id + " ended " + doc.get("status") + " while waiting for " + status + ": " + doc);
            }
            sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("document " + id + " not " + status + " in time: " + doc);
    }

    /** Waits for READY alone, whatever its enrichment stages (memories built after it) are doing. */
    public JsonNode awaitReadyBeforeItsMemories(UUID id, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode doc;
        do {
            doc = get("/v1/documents/" + id).json();
            if (doc.get("status").asString().equals("READY")) {
                return doc;
            }
            sleep(50);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("document " + id + " not READY in time: " + doc);
    }

    /** No stage is pending or running. */
    public static boolean settled(JsonNode document) {
        for (JsonNode stage : document.get("stages")) {
            String state = stage.get("status").asString();
            if (state.equals("PENDING") || state.equals("RUNNING")) {
                return false;
            }
        }
        return true;
    }

    /** Waits until the named stage of the document has the state. */
    public JsonNode awaitStage(UUID id, String stage, String state, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode doc;
        do {
            doc = get("/v1/documents/" + id).json();
            for (JsonNode s : doc.get("stages")) {
                if (s.get("name").asString().equals(stage)
                        && s.get("status").asString().equals(state)) {
                    return doc;
                }
            }
            sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("stage " + stage + " of document " + id + " not " + state + " in time: " + doc);
    }

    /**
     * Asks and waits for the question to finish; returns the question as the API shows it. The
     * server holds the request up to {@code waitSeconds} (30 unless the request says); a question
     * still running then (202) is polled until it finishes, so a slow machine makes the test slower,
     * not red.
     */
    public JsonNode ask(Map<String, Object> request) {
        Map<String, Object> body = new LinkedHashMap<>(request);
        body.putIfAbsent("waitSeconds", 30);
        Response response = post("/v1/questions", body);
        assertThat(response.status()).as(response.body()).isIn(200, 202);
        if (response.status() == 200) {
            return response.json();
        }
        return awaitQuestion(UUID.fromString(response.json().get("id").asString()), QUESTION_TIMEOUT);
    }

    /** How long {@link #ask} waits for a question that the server did not finish within {@code waitSeconds}. */
    private static final Duration QUESTION_TIMEOUT = Duration.ofMinutes(5);

    /** Polls until the question has {@code status} (QUEUED, RUNNING...); fails if it finishes otherwise or the time runs out. */
    public JsonNode awaitQuestionStatus(UUID id, String status, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode view;
        do {
            view = get("/v1/questions/" + id).json();
            String now = view.get("status").asString();
            if (now.equals(status)) {
                return view;
            }
            if (now.equals("DONE") || now.equals("FAILED")) {
                throw new AssertionError(
                        "question " + id + " ended " + now + " while waiting for " + status + ": " + view);
            }
            sleep(50);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("question " + id + " not " + status + " in time: " + view);
    }

    /**
     * One server-sent event.
     *
     * @param receivedNanos when the reader got it ({@link System#nanoTime}), to tell what arrived while
     *                      the question ran from what came at its end
     */
    public record Event(String id, String name, String data, long receivedNanos) {

        public JsonNode json() {
            return JSON.readTree(data);
        }

        /** The same event, whenever it was received: a stream read twice delivers equal events. */
        @Override
        public boolean equals(Object other) {
            return other instanceof Event e
                    && java.util.Objects.equals(id, e.id)
                    && java.util.Objects.equals(name, e.name)
                    && java.util.Objects.equals(data, e.data);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(id, name, data);
        }
    }

    /**
     * Reads a server-sent event stream to its end; fails if it has not ended within {@code timeout}
     * (a stream that never closes must not hang the suite).
     *
     * @param lastEventId sent as {@code Last-Event-ID} when not null, as a reconnecting client does
     */
    public List<Event> events(String path, String lastEventId, Duration timeout) {
        HttpRequest.Builder request = authorized(HttpRequest.newBuilder(uri(path))
                .header("Accept", "text/event-stream")
                .timeout(timeout));
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        List<Event> events = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicReference<InputStream> body = new AtomicReference<>();
        CompletableFuture<Void> reading = CompletableFuture.runAsync(
                () -> {
                    try {
                        HttpResponse<InputStream> response =
                                http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
                        body.set(response.body());
                        if (response.statusCode() != 200
                                || !response.headers()
                                        .firstValue("Content-Type")
                                        .orElse("")
                                        .startsWith("text/event-stream")) {
                            throw new AssertionError("not an event stream: " + response.statusCode() + " "
                                    + response.headers().map() + " "
                                    + new String(response.body().readAllBytes(), StandardCharsets.UTF_8));
                        }
                        try (BufferedReader reader =
                                new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                            String id = null;
                            String name = "message";
                            StringBuilder data = new StringBuilder();
                            for (String line; (line = reader.readLine()) != null; ) {
                                if (line.isEmpty()) {
                                    if (!data.isEmpty()) {
                                        events.add(new Event(id, name, data.toString(), System.nanoTime()));
                                    }
                                    id = null;
                                    name = "message";
                                    data.setLength(0);
                                } else if (line.startsWith("id:")) {
                                    id = line.substring(3).strip();
                                } else if (line.startsWith("event:")) {
                                    name = line.substring(6).strip();
                                } else if (line.startsWith("data:")) {
                                    data.append(data.isEmpty() ? "" : "\n")
                                            .append(line.substring(5).strip());
                                }
                            }
                        }
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                },
                runnable -> Thread.ofVirtual().name("sse-reader").start(runnable));
        try {
            reading.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return List.copyOf(events);
        } catch (TimeoutException e) {
            closeQuietly(body.get());
            reading.cancel(true);
            throw new AssertionError(
                    "the event stream " + path + " did not end within " + timeout + "; events so far: " + events);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AssertionError failure) {
                throw failure;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void closeQuietly(InputStream in) {
        if (in != null) {
            try {
                in.close();
            } catch (IOException ignored) {
                // the stream is being abandoned anyway
            }
        }
    }

    /** The payloads of a question's trace events of one type, in order. */
    public List<JsonNode> traceEvents(JsonNode question, String type) {
        List<JsonNode> found = new java.util.ArrayList<>();
        get("/v1/questions/" + question.get("id").asString() + "/trace")
                .json()
                .get("events")
                .forEach(e -> {
                    if (e.get("type").asString().equals(type)) {
                        found.add(e.get("payload"));
                    }
                });
        return found;
    }

    /** The types of a question's trace events, in order. */
    public List<String> traceTypes(JsonNode question) {
        List<String> types = new java.util.ArrayList<>();
        get("/v1/questions/" + question.get("id").asString() + "/trace")
                .json()
                .get("events")
                .forEach(e -> types.add(e.get("type").asString()));
        return types;
    }

    public JsonNode awaitQuestion(UUID id, Duration timeout) {
        return awaitFinished("/v1/questions/" + id, timeout);
    }

    /** Polls a question or evaluation until it is DONE or FAILED; returns it as the API shows it. */
    public JsonNode awaitFinished(String location, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode view;
        do {
            view = get(location).json();
            String status = view.get("status").asString();
            if (status.equals("DONE") || status.equals("FAILED")) {
                return view;
            }
            sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError(location + " unfinished: " + view);
    }

    private HttpRequest.Builder authorized(HttpRequest.Builder request) {
        return key == null ? request : request.header("Authorization", "Bearer " + key);
    }

    private Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(
                    authorized(request).timeout(Duration.ofSeconds(90)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Response(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void write(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @TestConfiguration(proxyBeanMethods = false)
    public static class Config {
        @Bean
        Api api(Environment environment) {
            return new Api(environment);
        }
    }
}
