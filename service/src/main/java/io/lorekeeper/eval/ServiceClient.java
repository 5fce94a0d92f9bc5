package io.lorekeeper.eval;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The evaluation's only way to the service: its public HTTP API, so that a remote deployment can be
 * evaluated as well as the local one.
 */
public class ServiceClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String baseUrl;
    private final String apiKey;

    public ServiceClient(String baseUrl, String apiKey) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.apiKey = apiKey;
    }

    public record TurnSpan(String turnId, int start, int end) {}

    /** Posts a document (identical content returns the stored one) and waits until it is READY. */
    public String ingest(Map<String, Object> document, Duration timeout) throws InterruptedException {
        JsonNode accepted = send("POST", "/v1/documents", document, 200, 202);
        String id = accepted.path("id").asString();
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean resumed = false;
        while (true) {
            JsonNode view = send("GET", "/v1/documents/" + id, null, 200);
            String status = view.path("status").asString();
            if (status.equals("READY")) {
                return id;
            }
            if (status.equals("FAILED") && !resumed) {
                // The same content stored earlier by a run that failed: resume its ingestion once.
                send("POST", "/v1/documents/" + id + "/reindex", Map.of(), 202);
                resumed = true;
                Thread.sleep(500);
                continue;
            }
            if (status.equals("FAILED")) {
                throw new IllegalStateException("ingestion of " + document.get("title") + " failed: "
                        + view.path("failureReason").asString());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "ingestion of " + document.get("title") + " did not finish within " + timeout);
            }
            Thread.sleep(500);
        }
    }

    public String text(String documentId) {
        return send("GET", "/v1/documents/" + documentId + "/text", null, 200)
                .path("text")
                .asString();
    }

    public List<TurnSpan> turns(String documentId) {
        List<TurnSpan> out = new ArrayList<>();
        for (JsonNode t : send("GET", "/v1/documents/" + documentId + "/turns", null, 200)) {
            out.add(new TurnSpan(
                    t.path("turnId").asString(),
                    t.path("start").asInt(),
                    t.path("end").asInt()));
        }
        return out;
    }

    /** Asks and waits for the question to finish; returns its final view. */
    public JsonNode ask(
            List<String> documentIds,
            String question,
            String strategy,
            List<String> choices,
            Map<String, Object> options,
            Duration timeout)
            throws InterruptedException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("documentIds", documentIds);
        body.put("question", question);
        body.put("strategy", strategy);
        if (choices != null && !choices.isEmpty()) {
            body.put("choices", choices);
        }
        if (options != null && !options.isEmpty()) {
            body.put("options", options);
        }
        body.put("waitSeconds", 30);
        JsonNode view = send("POST", "/v1/questions", body, 200, 202);
        String id = view.path("id").asString();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!finished(view)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("question " + id + " did not finish within " + timeout);
            }
            Thread.sleep(200);
            view = send("GET", "/v1/questions/" + id, null, 200);
        }
        return view;
    }

    private static boolean finished(JsonNode view) {
        String status = view.path("status").asString();
        return status.equals("DONE") || status.equals("FAILED") || status.equals("CANCELLED");
    }

    public JsonNode trace(String questionId) {
        return send("GET", "/v1/questions/" + questionId + "/trace", null, 200);
    }

    public JsonNode search(List<String> documentIds, String query, String mode, int k) {
        return send(
                "POST", "/v1/search", Map.of("documentIds", documentIds, "query", query, "mode", mode, "k", k), 200);
    }

    JsonNode send(String method, String path, Object body, int... expected) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(90))
                .header("Accept", "application/json");
        if (apiKey != null && !apiKey.isBlank()) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
        }
        HttpResponse<String> response;
        int attempt = 0;
        while (true) {
            try {
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 429 || response.statusCode() == 503) {
                    if (++attempt < 5) {
                        Thread.sleep(1000L * attempt);
                        continue;
                    }
                }
                break;
            } catch (IOException e) {
                if (++attempt >= 3) {
                    throw new IllegalStateException(method + " " + path + " failed: " + e.getMessage(), e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        for (int code : expected) {
            if (response.statusCode() == code) {
                return JSON.readTree(response.body());
            }
        }
        String detail = response.body().length() > 500 ? response.body().substring(0, 500) : response.body();
        throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + ": " + detail);
    }
}
