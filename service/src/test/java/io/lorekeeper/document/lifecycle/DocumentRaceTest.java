package io.lorekeeper.document.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.orm.ObjectOptimisticLockingFailureException;
import org.springframework.transaction.support.TransactionTemplate;

import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.StageStatus;
import io.lorekeeper.document.ingestion.StageProgress;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.json.JsonMapper;

/**
 * An ingestion job and a request (or two replicas) racing on one document: both load it in the
 * same state and both change it, the job one of its stages, the request the document. A change to
 * a stage bumps the document's version too, so exactly one commits; the other's write is refused
 * instead of overwriting it, and a job that retries ({@link DocumentChanges#change}) re-reads the
 * winner's state, where its change is applied again or declined. Nothing the winner stored is lost.
 */
@IntegrationTest
class DocumentRaceTest {

    private static final List<StageDef> STAGES = List.of(
            new StageDef("segment", false),
            new StageDef("embed", false),
            new StageDef("memos", true),
            new StageDef("page-headers", true));

    @Autowired
    DocumentRepository documents;

    @Autowired
    DocumentChanges changes;

    @Autowired
    StageProgress progress;

    @Autowired
    TransactionTemplate transaction;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    JsonMapper json;
    // not the common pool: on a two-core machine it runs one task at a time, and the racers wait for each other
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    @Test
    void ofTwoTransactionsThatLoadedTheSameDocumentOnlyTheFirstCommitsEvenWhenOneChangesOnlyAStage() throws Exception {
        UUID id = ready();
        CountDownLatch bothLoaded = new CountDownLatch(2);
        CountDownLatch firstCommitted = new CountDownLatch(1);

        // the job starts the memos stage...
        CompletableFuture<Void> job = CompletableFuture.runAsync(
                () -> {
                    transaction.executeWithoutResult(status -> {
                        Document d = documents.findById(id).orElseThrow();
                        d.stages(); // loaded before the other transaction commits
                        bothLoaded.countDown();
                        await(bothLoaded);
                        d.startStage("memos");
                    });
                    firstCommitted.countDown();
                },
                threads);
        // ...while a reindex that read it PENDING rebuilds it: legal on what it read, stale by the time it commits
        CompletableFuture<Void> reindex = CompletableFuture.runAsync(
                () -> transaction.executeWithoutResult(status -> {
                    Document d = documents.findById(id).orElseThrow();
                    d.stages();
                    bothLoaded.countDown();
                    await(firstCommitted);
                    assertThat(d.stage("memos").status())
                            .as("it still sees the state it read")
                            .isEqualTo(StageStatus.PENDING);
                    d.rebuild(List.of("memos"), true);
                }),
                threads);

        job.get(30, TimeUnit.SECONDS);
        assertThatThrownBy(() -> reindex.get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(ObjectOptimisticLockingFailureException.class);
        assertThat(stored(id)).isEqualTo(Map.of("status", "READY", "memos", "RUNNING 0", "version", 7L));
    }

    @Test
    void aJobWhoseStageWasResetWhileItRanRetriesOnTheFreshStateAndDeclinesCleanly() throws Exception {
        UUID id = ready();
        int generation = changes.changeAndGet(id, d -> d.startStage("memos")).orElseThrow();
        CountDownLatch jobLoaded = new CountDownLatch(1);
        CountDownLatch appendCommitted = new CountDownLatch(1);
        AtomicInteger jobAttempts = new AtomicInteger();
        AtomicReference<Boolean> recorded = new AtomicReference<>();

        CompletableFuture<Void> job = CompletableFuture.runAsync(
                () -> changes.change(id, d -> {
                    jobAttempts.incrementAndGet();
                    d.stages(); // the job read the stage before the other writer committed
                    jobLoaded.countDown();
                    await(appendCommitted);
                    recorded.set(d.finishStage("memos", generation, StageStatus.DONE, null, null));
                }),
                threads);
        await(jobLoaded);
        // sessions appended meanwhile (a request on another replica): every stage pending, a new generation
        transaction.executeWithoutResult(
                status -> changes.lock(CurrentTenant.DEFAULT, id).orElseThrow().appendSessions("grown", 240));
        appendCommitted.countDown();
        job.get(30, TimeUnit.SECONDS);

        assertThat(jobAttempts).as("the conflict, then the fresh read").hasValue(2);
        assertThat(recorded.get())
                .as("a run of the old generation records nothing")
                .isFalse();
        assertThat(stored(id))
                .as("the append stands")
                .isEqualTo(Map.of("status", "QUEUED", "memos", "PENDING 1", "version", 8L));
        assertThat(jdbc.sql("SELECT content_hash || ' ' || char_count FROM document WHERE id = ?")
                        .param(id)
                        .query(String.class)
                        .single())
                .isEqualTo("grown 240");
    }

    @Test
    void aChangeThatStillAppliesToTheFreshStateIsAppliedOnTheRetryKeepingTheWinnersChange() throws Exception {
        UUID id = ready();
        int generation = changes.changeAndGet(id, d -> d.startStage("memos")).orElseThrow();
        CountDownLatch jobLoaded = new CountDownLatch(1);
        CountDownLatch reindexCommitted = new CountDownLatch(1);
        AtomicInteger jobAttempts = new AtomicInteger();

        // the job finishes memos while a reindex rebuilds page-headers: both legal on either state
        CompletableFuture<Void> job = CompletableFuture.runAsync(
                () -> changes.change(id, d -> {
                    jobAttempts.incrementAndGet();
                    d.stages(); // the job read the stage before the other writer committed
                    jobLoaded.countDown();
                    await(reindexCommitted);
                    d.finishStage("memos", generation, StageStatus.DONE, null, null);
                }),
                threads);
        await(jobLoaded);
        transaction.executeWithoutResult(
                status -> changes.lock(CurrentTenant.DEFAULT, id).orElseThrow().rebuild(List.of("page-headers"), true));
        reindexCommitted.countDown();
        job.get(30, TimeUnit.SECONDS);

        assertThat(jobAttempts).hasValue(2);
        assertThat(stored(id)).isEqualTo(Map.of("status", "READY", "memos", "DONE 0", "version", 9L));
        assertThat(jdbc.sql(
                                "SELECT status || ' ' || requested || ' ' || generation FROM ingestion_stage WHERE document_id = ? AND stage = 'page-headers'")
                        .param(id)
                        .query(String.class)
                        .single())
                .as("and so is the winner's")
                .isEqualTo("PENDING true 1");
    }

    @Test
    void progressReportedWhileATransitionIsInFlightIsNotWrittenOver() throws Exception {
        UUID id = ready();
        int generation = changes.changeAndGet(id, d -> d.startStage("memos")).orElseThrow();
        CountDownLatch loaded = new CountDownLatch(1);
        CountDownLatch progressed = new CountDownLatch(1);

        CompletableFuture<Void> finish = CompletableFuture.runAsync(
                () -> changes.change(id, d -> {
                    d.stages();
                    loaded.countDown();
                    await(progressed);
                    d.finishStage("memos", generation, StageStatus.DONE, null, null);
                }),
                threads);
        await(loaded);
        progress.progress(id, "memos", 12, 12);
        progressed.countDown();
        finish.get(30, TimeUnit.SECONDS);

        assertThat(jdbc.sql(
                                "SELECT status || ' ' || done || '/' || total FROM ingestion_stage WHERE document_id = ? AND stage = 'memos'")
                        .param(id)
                        .query(String.class)
                        .single())
                .isEqualTo("DONE 12/12");
    }

    private final List<UUID> created = new java.util.ArrayList<>();

    /**
     * These documents have no ingestion job (the test plays the job), so one left QUEUED would look
     * to later tests sharing the database like work that never moves.
     */
    @AfterEach
    void stopThreadsAndForgetTheDocuments() {
        threads.shutdownNow();
        jdbc.sql("DELETE FROM document WHERE id = ANY(?)")
                .param(created.toArray(UUID[]::new))
                .update();
    }

    /** A READY document with its retrieval stages done, made through the aggregate as its job would (6 changes). */
    private UUID ready() {
        UUID id = UUID.randomUUID();
        created.add(id);
        documents.save(Document.create(
                id,
                CurrentTenant.DEFAULT,
                "The ferry",
                DocumentKind.CONVERSATION,
                "default",
                json.valueToTree(Map.of("source", "race")),
                "hash-" + id,
                120,
                STAGES));
        changes.change(id, Document::startIngestion);
        for (String stage : List.of("segment", "embed")) {
            int generation = changes.changeAndGet(id, d -> d.startStage(stage)).orElseThrow();
            changes.change(id, d -> d.finishStage(stage, generation, StageStatus.DONE, null, null));
        }
        changes.change(id, Document::ready);
        return id;
    }

    private Map<String, Object> stored(UUID id) {
        return jdbc.sql("""
                SELECT d.status, d.version, s.status || ' ' || s.generation AS memos
                FROM document d JOIN ingestion_stage s ON s.document_id = d.id AND s.stage = 'memos' WHERE d.id = ?""").param(id).query().singleRow();
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
