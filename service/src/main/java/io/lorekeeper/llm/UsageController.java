package io.lorekeeper.llm;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.security.CurrentTenant;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

@RestController
@Tag(name = "Usage", description = "What the tenant spent on models")
class UsageController {

    private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    private final JdbcClient jdbc;
    private final CurrentTenant tenant;

    UsageController(JdbcClient jdbc, CurrentTenant tenant) {
        this.jdbc = jdbc;
        this.tenant = tenant;
    }

    /** Tokens count what the provider billed: cache hits add calls and hits, not tokens. */
    record Totals(long calls, long promptTokens, long completionTokens, long cacheHits, long errors) {}

    record Line(
            String role,
            String model,
            long calls,
            long promptTokens,
            long completionTokens,
            long cacheHits,
            long errors) {}

    record UsageReport(Instant from, Instant to, Totals total, List<Line> byRoleAndModel) {}

    /** ISO 8601 parses years far beyond what a timestamp column (or java.sql.Timestamp) holds. */
    private static Instant within(String field, Instant instant) {
        if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
            throw ApiProblem.invalid(field, field + " must be between " + EARLIEST + " and " + LATEST);
        }
        return instant;
    }

    @GetMapping("/v1/usage")
    @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "200", description = "Totals and lines")
    @io.swagger.v3.oas.annotations.responses.ApiResponse(
            responseCode = "400",
            ref = io.lorekeeper.platform.ApiDocs.BAD_REQUEST)
    @Operation(
            operationId = "getUsage",
            description =
                    "From the call log: one row per role and model with calls, billed prompt and completion tokens, cache hits, errors and time waiting on the model. `from` and `to` are ISO-8601 instants; the default is the last 30 days.",
            summary = "Model calls, tokens, cache hits and errors of the tenant, by role and model, over [from, to)")
    UsageReport usage(
            @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant from,
            @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant to) {
        Instant end = to == null ? Instant.now() : within("to", to);
        Instant start = from == null ? end.minus(30, ChronoUnit.DAYS) : within("from", from);
        if (!start.isBefore(end)) {
            throw ApiProblem.invalid("from", "from must be before to");
        }
        // A retried call leaves one row per attempt; only the final outcome counts as a call. A
        // cache hit repeats the tokens of the reply it replays: they were not spent again.
        List<Line> lines = jdbc.sql("""
                SELECT role, model,
                       count(*) FILTER (WHERE outcome <> 'retry') AS calls,
                       coalesce(sum(prompt_tokens) FILTER (WHERE NOT cache_hit), 0) AS prompt_tokens,
                       coalesce(sum(completion_tokens) FILTER (WHERE NOT cache_hit), 0) AS completion_tokens,
                       count(*) FILTER (WHERE cache_hit) AS cache_hits,
                       count(*) FILTER (WHERE outcome NOT IN ('ok', 'retry')) AS errors
                FROM llm_call WHERE tenant_id = ? AND at >= ? AND at < ?
                GROUP BY role, model ORDER BY role, model""")
                .params(tenant.id(), java.sql.Timestamp.from(start), java.sql.Timestamp.from(end))
                .query((rs, n) -> new Line(
                        rs.getString("role"),
                        rs.getString("model"),
                        rs.getLong("calls"),
                        rs.getLong("prompt_tokens"),
                        rs.getLong("completion_tokens"),
                        rs.getLong("cache_hits"),
                        rs.getLong("errors")))
                .list();
        Totals total = new Totals(
                lines.stream().mapToLong(Line::calls).sum(),
                lines.stream().mapToLong(Line::promptTokens).sum(),
                lines.stream().mapToLong(Line::completionTokens).sum(),
                lines.stream().mapToLong(Line::cacheHits).sum(),
                lines.stream().mapToLong(Line::errors).sum());
        return new UsageReport(start, end, total, lines);
    }
}
