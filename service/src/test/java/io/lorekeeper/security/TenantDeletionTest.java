package io.lorekeeper.security;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.SecuredIntegrationTest;
import io.lorekeeper.support.Tenancy;

/** DELETE /v1/tenants/{id} removes everything the tenant owns, and nothing of anyone else's. */
@SecuredIntegrationTest
class TenantDeletionTest {

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @Test
    void deletingATenantRemovesItsKeysDocumentsQuestionsUsageAndCachedRepliesOnly() {
        Tenancy tenancy = new Tenancy(api);
        Tenancy.TenantWithKey doomed = tenancy.tenant("doomed");
        Tenancy.TenantWithKey kept = tenancy.tenant("kept");
        UUID doc = doomed.api()
                .ingest(aText("The doomed tenant wrote about salt marshes and herons.")
                        .build());
        UUID chat = doomed.api()
                .ingest(aConversation()
                        .session(null, "Wren", "Herons nest early.")
                        .build());
        UUID question = UUID.fromString(doomed.api()
                .ask(Map.of("documentIds", List.of(doc), "question", "What birds?", "strategy", "extractive"))
                .get("id")
                .asString());
        UUID keptDoc = kept.api()
                .ingest(aText("The kept tenant wrote about salt marshes and herons.")
                        .build());
        for (UUID tenant : List.of(doomed.id(), kept.id())) {
            jdbc.sql(
                            "INSERT INTO llm_call (tenant_id, role, profile, model, template, outcome) VALUES (?, 'judge', 'default', 'm', 't', 'ok')")
                    .param(tenant)
                    .update();
            jdbc.sql(
                            "INSERT INTO llm_cache (key, tenant_id, reply, prompt_tokens, completion_tokens) VALUES (?, ?, 'r', 1, 1)")
                    .params(UUID.randomUUID().toString(), tenant)
                    .update();
            jdbc.sql(
                            "INSERT INTO graph_summary (graph_hash, community, node_ids, title, rating, summary) VALUES (?, 0, '[]', 't', 1, 's')")
                    .param(tenant + ":hash:10")
                    .update();
        }
        assertThat(chunks(doc)).isPositive();

        Api admin = tenancy.admin();
        assertThat(admin.delete("/v1/tenants/" + doomed.id()).status()).isEqualTo(204);

        assertThat(count("SELECT count(*) FROM tenant WHERE id = ?", doomed.id()))
                .isZero();
        assertThat(count("SELECT count(*) FROM api_key WHERE tenant_id = ?", doomed.id()))
                .isZero();
        assertThat(count("SELECT count(*) FROM document WHERE tenant_id = ?", doomed.id()))
                .isZero();
        assertThat(count("SELECT count(*) FROM document_text WHERE document_id IN (?, ?)", doc, chat))
                .isZero();
        assertThat(count("SELECT count(*) FROM conversation_turn WHERE document_id = ?", chat))
                .isZero();
        assertThat(chunks(doc)).isZero();
        assertThat(count("SELECT count(*) FROM question WHERE id = ?", question))
                .isZero();
        assertThat(count("SELECT count(*) FROM trace_event WHERE question_id = ?", question))
                .isZero();
        assertThat(count("SELECT count(*) FROM llm_call WHERE tenant_id = ?", doomed.id()))
                .isZero();
        assertThat(count("SELECT count(*) FROM llm_cache WHERE tenant_id = ?", doomed.id()))
                .isZero();
        assertThat(count("SELECT count(*) FROM graph_summary WHERE graph_hash LIKE ?", doomed.id() + ":%"))
                .isZero();
        assertThat(count(
                        "SELECT count(*) FROM scheduled_tasks WHERE task_instance IN (?, ?, ?)",
                        doc.toString(),
                        chat.toString(),
                        question.toString()))
                .isZero();
        // Its key no longer opens anything; asking for it again is a 404.
        assertThat(doomed.api().get("/v1/documents").status()).isEqualTo(401);
        assertThat(admin.delete("/v1/tenants/" + doomed.id()).status()).isEqualTo(404);

        // The other tenant keeps everything.
        assertThat(kept.api().get("/v1/documents/" + keptDoc).status()).isEqualTo(200);
        assertThat(chunks(keptDoc)).isPositive();
        assertThat(count("SELECT count(*) FROM llm_call WHERE tenant_id = ?", kept.id()))
                .isEqualTo(1);
        assertThat(count("SELECT count(*) FROM llm_cache WHERE tenant_id = ?", kept.id()))
                .isEqualTo(1);
        assertThat(count("SELECT count(*) FROM graph_summary WHERE graph_hash LIKE ?", kept.id() + ":%"))
                .isEqualTo(1);
    }

    private long chunks(UUID documentId) {
        return count("SELECT count(*) FROM chunk WHERE document_id = ?", documentId);
    }

    private long count(String sql, Object... params) {
        return jdbc.sql(sql).params(params).query(Long.class).single();
    }
}
