package io.lorekeeper.retrieval;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A reranking endpoint over HTTP, in either of the two forms servers speak: Text Embeddings
 * Inference's {@code /rerank} ({@code {query, texts}} answered by {@code [{index, score}]}) and the
 * Cohere form that Jina and vLLM also serve ({@code {model, query, documents, top_n}} answered by
 * {@code {results: [{index, relevance_score}]}}). Passages go in batches of {@code batchSize}, each
 * cut to {@code maxChars}; a request that meets 429, a 5xx or a broken connection is tried again
 * with backoff, at most {@code concurrency} at once.
 */
final class HttpReranker implements Reranker {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final RerankSettings settings;
    private final HttpClient client;
    private final Semaphore inFlight;

    HttpReranker(RerankSettings settings) {
        this.settings = settings;
        // HTTP/1.1: inference servers speak it, and an h2c upgrade attempt is refused by some
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.timeout())
                .build();
        this.inFlight = new Semaphore(Math.max(1, settings.concurrency()));
    }

    @Override
    public String name() {
        return settings.format() + " " + settings.url();
    }

    @Override
    public double[] scores(String query, List<String> passages) {
        double[] scores = new double[passages.size()];
        int batch = Math.max(1, settings.batchSize());
        for (int from = 0; from < passages.size(); from += batch) {
            List<String> texts = passages.subList(from, Math.min(passages.size(), from + batch)).stream()
                    .map(this::cut)
                    .toList();
            byte[] body = JSON.writeValueAsBytes(body(query, texts));
            double[] part = scored(readScores(post(body), texts.size()), texts.size());
            System.arraycopy(part, 0, scores, from, part.length);
        }
        return scores;
    }

    private String cut(String passage) {
        if (passage.length() <= settings.maxChars()) {
            return passage;
        }
        int end = settings.maxChars();
        return passage.substring(0, Character.isHighSurrogate(passage.charAt(end - 1)) ? end - 1 : end);
    }

    private Map<String, Object> body(String query, List<String> texts) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (settings.format().equals("cohere")) {
            if (!settings.model().isBlank()) {
                body.put("model", settings.model());
            }
            body.put("query", query);
            body.put("documents", texts);
            body.put("top_n", texts.size());
        } else {
            body.put("query", query);
            body.put("texts", texts);
            body.put("truncate", true);
        }
        return body;
    }

    private JsonNode post(byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(settings.url()))
                .timeout(settings.timeout())
                .header("Content-Type", "application/json")
                // a body of known length: some inference servers read no chunked request
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (!settings.apiKey().isBlank()) {
            request.header("Authorization", "Bearer " + settings.apiKey());
        }
        inFlight.acquireUninterruptibly();
        try {
            RuntimeException last = null;
            for (int attempt = 1; attempt <= Math.max(1, settings.maxAttempts()); attempt++) {
                try {
                    HttpResponse<byte[]> response =
                            client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
                    int status = response.statusCode();
                    if (status / 100 == 2) {
                        return JSON.readTree(response.body());
                    }
                    if (status != 429 && status < 500) {
                        throw new RerankException("the reranker refused the request: HTTP " + status);
                    }
                    last = new RerankException("the reranker answered HTTP " + status);
                } catch (IOException e) {
                    last = new RerankException("the reranker could not be reached: " + e.getMessage(), e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RerankException("interrupted while waiting for the reranker", e);
                } catch (JacksonException e) {
                    throw new RerankException("the reranker's reply is not JSON", e);
                }
                backOff(attempt);
            }
            throw last;
        } finally {
            inFlight.release();
        }
    }

    private static void backOff(int attempt) {
        try {
            Thread.sleep(Math.min(2_000L, 100L << Math.min(attempt, 5)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RerankException("interrupted while waiting to retry the reranker", e);
        }
    }

    /** Each answered passage's score by its index, from either reply form. */
    private static List<double[]> readScores(JsonNode reply, int count) {
        JsonNode results = reply != null && reply.isObject() ? reply.path("results") : reply;
        if (results == null || !results.isArray()) {
            throw new RerankException("the reranker's reply has no scores");
        }
        List<double[]> scored = new ArrayList<>();
        for (JsonNode result : results) {
            JsonNode score = result.has("relevance_score") ? result.get("relevance_score") : result.get("score");
            JsonNode index = result.get("index");
            if (index != null && index.isIntegralNumber() && score != null && score.isNumber()) {
                int i = index.asInt();
                if (i >= 0 && i < count) {
                    scored.add(new double[] {i, score.asDouble()});
                }
            }
        }
        return scored;
    }

    /** Scores in passage order; a passage the reply left out ranks below every scored one. */
    private static double[] scored(List<double[]> byIndex, int count) {
        if (byIndex.isEmpty()) {
            throw new RerankException("the reranker's reply scored none of the " + count + " passages");
        }
        double[] scores = new double[count];
        java.util.Arrays.fill(scores, Double.NEGATIVE_INFINITY);
        byIndex.forEach(s -> scores[(int) s[0]] = s[1]);
        return scores;
    }

    static final class RerankException extends RuntimeException {
        RerankException(String message) {
            super(message);
        }

        RerankException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
