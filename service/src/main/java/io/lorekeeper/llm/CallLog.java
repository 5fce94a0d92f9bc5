package io.lorekeeper.llm;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Writes every model call to {@code llm_call}; the source of /v1/usage and of per-question cost figures. */
@Component
class CallLog {

    private final JdbcClient jdbc;

    CallLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void record(CallRecord call) {
        jdbc.sql("""
                INSERT INTO llm_call (tenant_id, question_id, document_id, role, profile, model, template, prompt_tokens,
                    completion_tokens, latency_ms, cache_hit, outcome, error)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(
                        call.scope().tenantId(),
                        call.scope().questionId(),
                        call.scope().documentId(),
                        call.role().key(),
                        call.profile(),
                        call.model(),
                        call.template(),
                        call.promptTokens(),
                        call.completionTokens(),
                        call.latencyMs(),
                        call.cacheHit(),
                        call.outcome(),
                        call.error())
                .update();
    }
}
