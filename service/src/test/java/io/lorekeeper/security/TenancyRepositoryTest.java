package io.lorekeeper.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import jakarta.persistence.EntityManagerFactory;

import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

import io.lorekeeper.platform.IllegalTransitionException;
import io.lorekeeper.support.IntegrationTest;

/**
 * The {@link Tenant} and {@link ApiKey} mappings against the real tables (Flyway's schema, which
 * Hibernate does not validate): every column written as the SQL and older rows expect it, read back,
 * the version bumped once per committed change, and the key's one transition guarded.
 */
@IntegrationTest
class TenancyRepositoryTest {

    @Autowired
    TenantRepository tenants;

    @Autowired
    ApiKeyRepository keys;

    @Autowired
    ApiKeys apiKeys;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    TransactionTemplate transaction;

    @Autowired
    EntityManagerFactory entityManagerFactory;

    @Test
    void aTenantsQuotaOverridesAreStoredInTheirColumnsAndReadBack() {
        Tenant created = tenants.saveAndFlush(new Tenant(
                "repository-" + UUID.randomUUID(), new Quotas.Overrides(60L, null, 0L, 5000L), Instant.now()));
        Map<String, Object> row = jdbc.sql("""
                SELECT version, requests_per_minute, max_stored_bytes, max_documents, llm_tokens_per_day, created_at IS NOT NULL AS created
                FROM tenant WHERE id = ?""").param(created.id()).query().singleRow();
        assertThat(row)
                .containsEntry("version", 0L)
                .containsEntry("requests_per_minute", 60)
                .containsEntry("max_stored_bytes", null)
                .containsEntry("max_documents", 0)
                .containsEntry("llm_tokens_per_day", 5000L)
                .containsEntry("created", true);

        transaction.executeWithoutResult(status -> tenants.findById(created.id())
                .orElseThrow()
                .setQuotas(new Quotas.Overrides(null, 1_000_000L, 0L, 5000L)));
        Tenant read = tenants.findById(created.id()).orElseThrow();
        assertThat(read.quotas()).isEqualTo(new Quotas.Overrides(null, 1_000_000L, 0L, 5000L));
        assertThat(read.version()).isEqualTo(1L);
    }

    @Test
    void aKeyIsFoundByItsHashWithItsTenantUntilRevokedAndIsRevokedOnlyOnce() {
        Tenant tenant = tenants.saveAndFlush(
                new Tenant("keys-" + UUID.randomUUID(), new Quotas.Overrides(7L, null, null, null), Instant.now()));
        ApiKeys.NewApiKey issued = apiKeys.issue(tenant.id(), "ci", true);

        Map<String, Object> row = jdbc.sql(
                        "SELECT tenant_id, name, prefix, key_hash, can_evaluate, revoked_at, version FROM api_key WHERE id = ?")
                .param(issued.id())
                .query()
                .singleRow();
        assertThat(row)
                .containsEntry("tenant_id", tenant.id())
                .containsEntry("name", "ci")
                .containsEntry("prefix", issued.prefix())
                .containsEntry("can_evaluate", true)
                .containsEntry("revoked_at", null)
                .containsEntry("version", 0L);
        assertThat((byte[]) row.get("key_hash")).isEqualTo(ApiKeys.hash(issued.key()));

        Statistics statistics =
                entityManagerFactory.unwrap(SessionFactory.class).getStatistics();
        statistics.setStatisticsEnabled(true);
        ApiKeys.Holder holder;
        try {
            statistics.clear();
            holder = apiKeys.find(issued.key()).orElseThrow();
            assertThat(statistics.getPrepareStatementCount())
                    .as("the per-request lookup: key and tenant in one query")
                    .isEqualTo(1);
        } finally {
            statistics.setStatisticsEnabled(false);
        }
        assertThat(holder.keyId()).isEqualTo(issued.id());
        assertThat(holder.tenantId()).isEqualTo(tenant.id());
        assertThat(holder.canEvaluate()).isTrue();
        assertThat(holder.quotas().requestsPerMinute())
                .as("the tenant's overrides, from the same query")
                .isEqualTo(7L);
        assertThat(apiKeys.find(ApiKeys.newKey())).isEmpty();

        assertThat(apiKeys.revoke(tenant.id(), issued.id())).isTrue();
        assertThat(apiKeys.find(issued.key()))
                .as("a revoked key resolves to nothing")
                .isEmpty();
        ApiKey revoked = keys.findById(issued.id()).orElseThrow();
        assertThat(revoked.state()).isEqualTo(ApiKey.State.REVOKED);
        assertThat(revoked.version()).isEqualTo(1L);

        assertThatThrownBy(() -> apiKeys.revoke(tenant.id(), issued.id()))
                .isInstanceOfSatisfying(IllegalTransitionException.class, e -> {
                    assertThat(e.state()).isEqualTo("REVOKED");
                    assertThat(e.transition()).isEqualTo("revoke");
                    assertThat(e.allowedFrom()).containsExactly("ACTIVE");
                });
        assertThat(keys.findById(issued.id()).orElseThrow().revokedAt())
                .as("the first revocation time stays")
                .isEqualTo(revoked.revokedAt());
        assertThat(apiKeys.revoke(UUID.randomUUID(), issued.id()))
                .as("another tenant's key is not found")
                .isFalse();
    }
}
