package io.lorekeeper.document.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import io.lorekeeper.document.DocumentDeleted;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.DocumentReady;
import io.lorekeeper.document.DocumentStatus;
import io.lorekeeper.document.StageStatus;
import io.lorekeeper.platform.IllegalTransitionException;
import tools.jackson.databind.json.JsonMapper;

/** The document aggregate's legal transitions, with its stages, and the refusal of every other one, without Spring or a database. */
class DocumentTransitionsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<StageDef> STAGES =
            List.of(new StageDef("segment", false), new StageDef("embed", false), new StageDef("memos", true));

    @Test
    void aDocumentIsIngestedStageByStageUntilReadyAndSaysSoOnce() {
        Document d = document(DocumentKind.TEXT);
        assertThat(d.status()).isEqualTo(DocumentStatus.QUEUED);
        assertThat(d.stages()).extracting(DocumentStage::name).containsExactly("segment", "embed", "memos");
        assertThat(d.stages()).extracting(DocumentStage::status).containsOnly(StageStatus.PENDING);

        d.startIngestion();
        for (String stage : List.of("segment", "embed")) {
            int generation = d.startStage(stage);
            assertThat(d.finishStage(stage, generation, StageStatus.DONE, null, null))
                    .isTrue();
        }
        assertThat(d.pendingEvents()).isEmpty();
        d.ready();

        assertThat(d.status()).isEqualTo(DocumentStatus.READY);
        assertThat(d.pendingEvents()).containsExactly(new DocumentReady(d.id(), d.tenantId()));
        assertThat(d.stage("segment").attempts()).isEqualTo(1);
    }

    @Test
    void aFailingRetrievalStageFailsTheDocumentWhichOnlyAReindexQueuesAgain() {
        Document d = document(DocumentKind.TEXT);
        d.startIngestion();
        int generation = d.startStage("segment");
        d.finishStage("segment", generation, StageStatus.FAILED, "boom", null);
        d.fail("segment failed: boom");
        assertThat(d.failureReason()).isEqualTo("segment failed: boom");

        refused(d, Document::startIngestion, "FAILED", "start ingestion");
        refused(d, Document::ready, "FAILED", "become ready");
        d.resume();
        assertThat(d.status()).isEqualTo(DocumentStatus.QUEUED);
        assertThat(d.failureReason()).isNull();
    }

    @Test
    void whileItIsIngestedADocumentRefusesAppendsReindexesAndASecondOutcome() {
        Document d = document(DocumentKind.CONVERSATION);
        refused(d, x -> x.appendSessions("h2", 200), "QUEUED", "append sessions");
        refused(d, x -> x.rebuild(List.of("memos"), true), "QUEUED", "rebuild stages");
        refused(d, Document::resume, "QUEUED", "resume");
        refused(d, Document::ready, "QUEUED", "become ready");
        refused(d, x -> x.fail("no"), "QUEUED", "fail");
        d.startIngestion();
        refused(d, x -> x.appendSessions("h2", 200), "INGESTING", "append sessions");
        d.waitForRetry();
        assertThat(d.status()).isEqualTo(DocumentStatus.QUEUED);
        refused(d, Document::waitForRetry, "QUEUED", "wait for a retry");
    }

    @Test
    void aStageRecordsOnlyTheOutcomeOfARunOfItsCurrentGeneration() {
        Document d = readyConversation();
        int generation = d.startStage("memos");
        d.appendSessions("h2", 200); // legal while an enrichment runs: the run belongs to the old generation

        assertThat(d.finishStage("memos", generation, StageStatus.DONE, null, null))
                .as("a run from before the append")
                .isFalse();
        assertThat(d.stage("memos").status()).isEqualTo(StageStatus.PENDING);
        assertThat(d.stages()).extracting(DocumentStage::status).containsOnly(StageStatus.PENDING);
        assertThat(d.status()).isEqualTo(DocumentStatus.QUEUED);
        assertThat(d.contentHash()).isEqualTo("h2");
        assertThat(d.charCount()).isEqualTo(200);
    }

    @Test
    void aStageRefusesToFinishUnlessRunningAndToStartOrSkipOnceFinished() {
        Document d = readyConversation();
        DocumentStage memos = d.stage("memos");
        assertThatThrownBy(() -> d.finishStage("memos", memos.generation(), StageStatus.DONE, null, null))
                .isInstanceOfSatisfying(IllegalTransitionException.class, e -> {
                    assertThat(e.aggregate()).isEqualTo("Stage");
                    assertThat(e.state()).isEqualTo("PENDING");
                    assertThat(e.allowedFrom()).containsExactly("RUNNING");
                });
        d.skipStage("memos", "built on demand");
        assertThatThrownBy(() -> d.startStage("memos")).isInstanceOf(IllegalTransitionException.class);
        assertThatThrownBy(() -> d.skipStage("memos", "again")).isInstanceOf(IllegalTransitionException.class);
        assertThatThrownBy(() -> d.startStage("graph"))
                .as("a stage it has no row for")
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRebuildRefusesARunningStageAndQueuesTheDocumentOnlyForRetrievalStages() {
        Document d = readyConversation();
        int generation = d.startStage("memos");
        assertThatThrownBy(() -> d.rebuild(List.of("memos"), true))
                .isInstanceOfSatisfying(
                        IllegalTransitionException.class,
                        e -> assertThat(e.transition()).isEqualTo("rebuild"));
        d.finishStage(
                "memos",
                generation,
                StageStatus.FAILED,
                "model down",
                Instant.now().plusSeconds(60));

        d.rebuild(List.of("memos"), true);
        assertThat(d.status())
                .as("an enrichment is rebuilt while the document stays READY")
                .isEqualTo(DocumentStatus.READY);
        assertThat(d.stage("memos").requested()).isTrue();
        assertThat(d.stage("memos").generation()).isEqualTo(generation + 1);
        assertThat(d.stage("memos").retryAt()).isNull();

        d.rebuild(List.of("embed", "memos"), false);
        assertThat(d.status()).isEqualTo(DocumentStatus.QUEUED);
        assertThat(d.stage("memos").requested())
                .as("once asked for, it stays asked for")
                .isTrue();
    }

    @Test
    void resumingGivesFailedEnrichmentsFreshAttemptsAndLeavesTheRestAlone() {
        Document d = readyConversation();
        int generation = d.startStage("memos");
        d.finishStage("memos", generation, StageStatus.FAILED, "gave up", null);

        d.resume();
        assertThat(d.status()).isEqualTo(DocumentStatus.READY);
        assertThat(d.stage("memos").status()).isEqualTo(StageStatus.PENDING);
        assertThat(d.stage("memos").attempts()).isZero();
        assertThat(d.stage("segment").status()).isEqualTo(StageStatus.DONE);
    }

    @Test
    void onlyAConversationGrows() {
        Document d = document(DocumentKind.TEXT);
        d.startIngestion();
        d.fail("x");
        assertThatThrownBy(() -> d.appendSessions("h2", 10)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void newStagesAreAddedAndKnownOnesKeptWhereTheServiceNowPutsThem() {
        Document d = document(DocumentKind.TEXT);
        d.defineStages(List.of(
                new StageDef("segment", false),
                new StageDef("embed", false),
                new StageDef("graph", true),
                new StageDef("memos", true)));
        assertThat(d.stages()).extracting(DocumentStage::name).containsExactly("segment", "embed", "memos", "graph");
        assertThat(d.stage("memos").position()).isEqualTo(3);
        assertThat(d.stage("graph").status()).isEqualTo(StageStatus.PENDING);
    }

    @Test
    void deletingTellsTheOtherModules() {
        Document d = document(DocumentKind.TEXT);
        assertThat(d.deleted().pendingEvents()).containsExactly(new DocumentDeleted(d.id(), d.tenantId()));
    }

    private static Document readyConversation() {
        Document d = document(DocumentKind.CONVERSATION);
        d.startIngestion();
        for (String stage : List.of("segment", "embed")) {
            d.finishStage(stage, d.startStage(stage), StageStatus.DONE, null, null);
        }
        d.ready();
        return d;
    }

    private static Document document(DocumentKind kind) {
        return Document.create(
                UUID.randomUUID(),
                UUID.randomUUID(),
                "A title",
                kind,
                "default",
                JSON.valueToTree(java.util.Map.of()),
                "h1",
                100,
                STAGES);
    }

    private static void refused(Document d, Consumer<Document> transition, String state, String name) {
        DocumentStatus before = d.status();
        assertThatThrownBy(() -> transition.accept(d)).isInstanceOfSatisfying(IllegalTransitionException.class, e -> {
            assertThat(e.aggregate()).isEqualTo("Document");
            assertThat(e.state()).isEqualTo(state);
            assertThat(e.transition()).isEqualTo(name);
        });
        assertThat(d.status()).as("a refused transition changes nothing").isEqualTo(before);
    }
}
