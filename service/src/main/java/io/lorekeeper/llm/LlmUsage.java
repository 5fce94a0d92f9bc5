package io.lorekeeper.llm;

import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * What the model calls made for one question cost, read back from the call log ({@code llm_call}).
 * Counted as {@code /v1/usage} counts them, so that the two always agree.
 */
@Service
public class LlmUsage {

    /**
     * @param calls            model calls, cache hits included; a retried call counts once
     * @param promptTokens     prompt tokens the provider billed (a cache hit replays a reply and bills none)
     * @param completionTokens completion tokens the provider billed
     * @param cacheHits        calls answered from the response cache
     * @param llmMs            time spent waiting on the model, failed attempts included
     */
    public record Totals(long calls, long promptTokens, long completionTokens, long cacheHits, long llmMs) {}

    private final JdbcClient jdbc;

    LlmUsage(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** One aggregate over the question's rows (llm_call_question_idx); zeros when it made no call. */
    public Totals ofQuestion(UUID questionId) {
        return jdbc.sql("""
                SELECT count(*) FILTER (WHERE outcome <> 'retry') AS calls,
                       coalesce(sum(prompt_tokens) FILTER (WHERE NOT cache_hit), 0) AS prompt_tokens,
                       coalesce(sum(completion_tokens) FILTER (WHERE NOT cache_hit), 0) AS completion_tokens,
                       count(*) FILTER (WHERE cache_hit) AS cache_hits,
                       coalesce(sum(latency_ms), 0) AS llm_ms
                FROM llm_call WHERE question_id = ?""")
                .param(questionId)
                .query((rs, n) -> new Totals(
                        rs.getLong("calls"),
                        rs.getLong("prompt_tokens"),
                        rs.getLong("completion_tokens"),
                        rs.getLong("cache_hits"),
                        rs.getLong("llm_ms")))
                .single();
    }
}
