package io.lorekeeper.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.orm.ObjectOptimisticLockingFailureException;
import org.springframework.transaction.support.TransactionTemplate;

import io.lorekeeper.platform.IllegalTransitionException;
import io.lorekeeper.platform.Transitions;
import io.lorekeeper.support.IntegrationTest;

/**
 * Two replicas changing the same key or tenant at once: the version (or, for a deletion, the row
 * lock) lets exactly one change commit; the other is refused cleanly, and nothing the winner wrote
 * is overwritten.
 */
@IntegrationTest
class TenancyRaceTest {

    @Autowired
    TenantRepository tenants;

    @Autowired
    ApiKeyRepository keys;

    @Autowired
    ApiKeys apiKeys;

    @Autowired
    Tenants tenantService;

    @Autowired
    Transitions transitions;

    @Autowired
    TransactionTemplate transaction;
    // not the common pool: on a two-core machine it runs one task at a time, and the racers wait for each other
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void ofTwoTransactionsThatLoadedTheSameActiveKeyOnlyTheFirstRevocationCommits() throws Exception {
        UUID key = newKey();
        Instant firstTime = Instant.parse("2026-01-01T10:00:00Z");
        CountDownLatch bothLoaded = new CountDownLatch(2);
        CountDownLatch firstCommitted = new CountDownLatch(1);

        CompletableFuture<Void> first = CompletableFuture.runAsync(
                () -> {
                    transaction.executeWithoutResult(status -> {
                        ApiKey k = keys.findById(key).orElseThrow();
                        bothLoaded.countDown();
                        await(bothLoaded);
                        k.revoke(firstTime);
                    });
                    firstCommitted.countDown();
                },
                threads);
        CompletableFuture<Void> second = CompletableFuture.runAsync(
                () -> transaction.executeWithoutResult(status -> {
                    ApiKey k = keys.findById(key).orElseThrow();
                    bothLoaded.countDown();
                    await(firstCommitted);
                    assertThat(k.state()).as("it still sees the state it read").isEqualTo(ApiKey.State.ACTIVE);
                    k.revoke(Instant.parse(
                            "2026-01-01T11:00:00Z")); // legal on the state it read: only the version tells it is stale
                }),
                threads);

        first.get(30, TimeUnit.SECONDS);
        assertThatThrownBy(() -> second.get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(ObjectOptimisticLockingFailureException.class);
        ApiKey stored = keys.findById(key).orElseThrow();
        assertThat(stored.revokedAt()).isEqualTo(firstTime);
        assertThat(stored.version()).isEqualTo(1L);
    }

    @Test
    void aRevocationThatLosesTheRaceIsAppliedAgainToTheFreshKeyAndRefusedCleanly() throws Exception {
        UUID key = newKey();
        CountDownLatch loserLoaded = new CountDownLatch(1);
        CountDownLatch winnerCommitted = new CountDownLatch(1);
        AtomicInteger loserAttempts = new AtomicInteger();

        CompletableFuture<Void> loser = CompletableFuture.runAsync(
                () -> transitions.apply(keys, key, k -> {
                    loserAttempts.incrementAndGet();
                    loserLoaded.countDown();
                    await(winnerCommitted);
                    k.revoke(Instant.now());
                }),
                threads);
        await(loserLoaded);
        Instant winnerTime = keys.findById(key).orElseThrow().createdAt().plusSeconds(1);
        transitions.apply(keys, key, k -> k.revoke(winnerTime));
        winnerCommitted.countDown();

        assertThatThrownBy(() -> loser.get(30, TimeUnit.SECONDS))
                .cause()
                .isInstanceOfSatisfying(
                        IllegalTransitionException.class,
                        e -> assertThat(e.state()).isEqualTo("REVOKED"));
        assertThat(loserAttempts)
                .as("the conflict, then the fresh read that refuses")
                .hasValue(2);
        assertThat(keys.findById(key).orElseThrow().revokedAt()).isEqualTo(winnerTime);
    }

    @Test
    void ofTwoDeletionsOfOneTenantOneDeletesItAndTheOtherFindsItGone() throws Exception {
        UUID tenant = tenants.saveAndFlush(
                        new Tenant("race-" + UUID.randomUUID(), Quotas.Overrides.NONE, Instant.now()))
                .id();
        apiKeys.issue(tenant, "ci", false);
        CyclicBarrier together = new CyclicBarrier(2);
        List<Future<Boolean>> deletions = List.of(
                threads.submit(() -> {
                    together.await(20, TimeUnit.SECONDS);
                    return tenantService.delete(tenant);
                }),
                threads.submit(() -> {
                    together.await(20, TimeUnit.SECONDS);
                    return tenantService.delete(tenant);
                }));
        List<Boolean> outcomes = List.of(
                deletions.get(0).get(30, TimeUnit.SECONDS), deletions.get(1).get(30, TimeUnit.SECONDS));
        assertThat(outcomes).containsExactlyInAnyOrder(true, false);
        assertThat(tenants.findById(tenant)).isEmpty();
        assertThat(keys.findByTenantIdOrderByCreatedAtAscIdAsc(tenant))
                .as("its keys went with it")
                .isEmpty();
    }

    private UUID newKey() {
        UUID tenant = tenants.saveAndFlush(
                        new Tenant("race-" + UUID.randomUUID(), Quotas.Overrides.NONE, Instant.now()))
                .id();
        return apiKeys.issue(tenant, "ci", false).id();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the other transaction never got there");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
