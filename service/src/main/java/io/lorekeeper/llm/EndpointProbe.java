package io.lorekeeper.llm;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Asks each configured model endpoint once, at start, whether it answers ({@code GET /models},
 * which OpenAI, Azure's v1 API, Ollama, vLLM and llama.cpp all serve), so that an operator sees a
 * wrong URL or key on the health page rather than in the first failed job; from then on the
 * outcome of real calls keeps it current: {@value #FAILURES_TO_UNREACHABLE} failed attempts in a
 * row to reach a profile's endpoint mark it unreachable, one answer marks it reachable again. The
 * result is reported, never enforced on readiness (a third party must not take the service out of
 * a load balancer); {@code auto} reads it to route around a model that is down.
 */
@Component("llm")
class EndpointProbe implements HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(EndpointProbe.class);
    /** Reported when a configured endpoint did not answer; mapped to HTTP 200 so that it never fails a probe. */
    static final Status UNREACHABLE = new Status("UNREACHABLE", "a configured model endpoint did not answer");

    private static final String OPENAI = "https://api.openai.com/v1";

    private final LlmSettings settings;
    private final ModelProfiles profiles;
    private final Map<String, Result> results = new ConcurrentHashMap<>();
    private final Map<String, java.util.concurrent.atomic.AtomicInteger> failuresInARow = new ConcurrentHashMap<>();

    /** Failed attempts in a row (retries included) after which an endpoint counts as unreachable. */
    static final int FAILURES_TO_UNREACHABLE = 3;

    EndpointProbe(LlmSettings settings, ModelProfiles profiles) {
        this.settings = settings;
        this.profiles = profiles;
    }

    /**
     * @param reachable null until probed
     * @param detail    the HTTP status or error; never the key
     */
    public record Result(String baseUrl, Boolean reachable, String detail, Instant checkedAt) {}

    @EventListener(ApplicationReadyEvent.class)
    void probeInBackground() {
        if (settings.isConfigured()) {
            Thread.ofVirtual().name("llm-endpoint-probe").start(this::probeAll);
        }
    }

    void probeAll() {
        Map<String, ModelProfile> endpoints = new LinkedHashMap<>();
        for (ModelProfile profile : profiles.all()) {
            endpoints.putIfAbsent(
                    baseUrl(profile) + "|"
                            + (profile.apiKey() == null ? "" : profile.apiKey().hashCode()),
                    profile);
        }
        for (ModelProfile profile : endpoints.values()) {
            Result result = probe(profile);
            results.put(profile.name(), result);
            if (Boolean.TRUE.equals(result.reachable())) {
                log.info(
                        "Model endpoint of profile {} ({}) answers: {}",
                        profile.name(),
                        result.baseUrl(),
                        result.detail());
            } else {
                log.warn(
                        "Model endpoint of profile {} ({}) does not answer: {}; LLM strategies and memories will fail until it does",
                        profile.name(),
                        result.baseUrl(),
                        result.detail());
            }
        }
    }

    private Result probe(ModelProfile profile) {
        String base = baseUrl(profile);
        try (HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base.replaceAll("/+$", "") + "/models"))
                    .timeout(Duration.ofSeconds(10))
                    .GET();
            if (profile.apiKey() != null) {
                request.header("Authorization", "Bearer " + profile.apiKey());
            }
            int status = client.send(request.build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
            String detail = switch (status) {
                case 401, 403 -> "HTTP " + status + ": the API key was refused";
                default -> "HTTP " + status;
            };
            // 404: some compatible servers do not list models, yet they answered
            return new Result(base, status < 400 || status == 404, detail, Instant.now());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(base, false, "interrupted", Instant.now());
        } catch (Exception e) {
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            if (profile.apiKey() != null) {
                message = message.replace(profile.apiKey(), "****");
            }
            return new Result(base, false, "connection failed: " + message, Instant.now());
        }
    }

    /**
     * What a real call found: {@code answered} when the endpoint replied (whatever the reply's use),
     * false when it could not be reached or failed with a server error.
     */
    void observed(ModelProfile profile, boolean answered, String detail) {
        if (!settings.isConfigured()) {
            return;
        }
        var failures =
                failuresInARow.computeIfAbsent(profile.name(), n -> new java.util.concurrent.atomic.AtomicInteger());
        Result before = results.get(profile.name());
        if (answered) {
            failures.set(0);
            if (before == null || !Boolean.TRUE.equals(before.reachable())) {
                results.put(profile.name(), new Result(baseUrl(profile), true, "answered a call", Instant.now()));
                log.info("Model endpoint of profile {} ({}) answers again", profile.name(), baseUrl(profile));
            }
            return;
        }
        int inARow = failures.incrementAndGet();
        if (inARow >= FAILURES_TO_UNREACHABLE && (before == null || !Boolean.FALSE.equals(before.reachable()))) {
            results.put(
                    profile.name(),
                    new Result(
                            baseUrl(profile),
                            false,
                            inARow + " calls in a row failed; last: " + detail,
                            Instant.now()));
            log.warn(
                    "Model endpoint of profile {} ({}) marked unreachable after {} failed calls in a row: {}",
                    profile.name(),
                    baseUrl(profile),
                    inARow,
                    detail);
        }
    }

    private static String baseUrl(ModelProfile profile) {
        return profile.baseUrl() == null ? OPENAI : profile.baseUrl();
    }

    /** What the start-up probe found, per profile probed; empty before it ran or without an LLM. */
    Map<String, Result> results() {
        return Map.copyOf(results);
    }

    @Override
    public Health health() {
        if (!settings.isConfigured()) {
            return Health.unknown()
                    .withDetail("configured", false)
                    .withDetail("detail", "no LLM configured: set OPENAI_API_KEY or LOREKEEPER_LLM_BASE_URL")
                    .build();
        }
        Map<String, Result> now = results();
        if (now.isEmpty()) {
            return Health.unknown()
                    .withDetail("configured", true)
                    .withDetail("detail", "not probed yet")
                    .build();
        }
        boolean all = now.values().stream().allMatch(r -> Boolean.TRUE.equals(r.reachable()));
        return Health.status(all ? Status.UP : UNREACHABLE)
                .withDetail("configured", true)
                .withDetail("endpoints", now)
                .build();
    }
}
