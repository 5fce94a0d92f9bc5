package io.lorekeeper.document.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.DocumentStatus;
import io.lorekeeper.document.StageStatus;
import io.lorekeeper.platform.IllegalTransitionException;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the document aggregate records beside its status, without Spring or a database: every change
 * to it or one of its stages marks the root changed (its {@code updatedAt}, which makes the repository
 * check and bump its version), a stage's generation, attempts, retry time and gaps, and the
 * all-or-none rules of a rebuild.
 */
class DocumentBookkeepingTest {

    private static final List<StageDef> STAGES =
            List.of(new StageDef("segment", false), new StageDef("embed", false), new StageDef("memos", true));

    @Test
    void everyTransitionMarksTheRootChanged() throws Exception {
        Document d = document(DocumentKind.CONVERSATION);
        changes(d, Document::startIngestion);
        for (String stage : List.of("segment", "embed")) {
            int[] generation = new int[1];
            changes(d, x -> generation[0] = x.startStage(stage));
            changes(d, x -> x.finishStage(stage, generation[0], StageStatus.DONE, null, null));
        }
        changes(d, Document::ready);
        changes(d, x -> x.skipStage("memos", "not wanted"));
        changes(d, x -> x.rebuild(List.of("memos"), false));
        changes(d, Document::resume);
        changes(d, x -> x.appendSessions("h2", 200));
        changes(d, Document::startIngestion);
        changes(d, Document::waitForRetry);
        changes(d, Document::startIngestion);
        changes(d, x -> x.fail("boom"));
    }

    @Test
    void stagesAreDefinedOnceAndRedefinedOnlyWhenTheirPlaceOrKindChanged() throws Exception {
        Document d = document(DocumentKind.TEXT);
        stale(d);
        d.defineStages(STAGES);
        assertThat(updatedAt(d)).as("nothing changed, nothing marked").isEqualTo(Instant.EPOCH);

        changes(d, x -> x.defineStages(List.of(STAGES.get(0), STAGES.get(1), new StageDef("memos", false))));
        assertThat(d.stage("memos").enrichment()).isFalse();
        changes(d, x -> x.defineStages(List.of(STAGES.get(1), STAGES.get(0), new StageDef("memos", false))));
        assertThat(d.stage("embed").position()).isZero();
        assertThat(d.stage("segment").position()).isEqualTo(1);
        changes(
                d,
                x -> x.defineStages(List.of(STAGES.get(1), STAGES.get(0), STAGES.get(2), new StageDef("graph", true))));
        assertThat(d.stages()).extracting(DocumentStage::name).contains("graph");
        assertThat(d.stage("graph").position()).isEqualTo(3);

        changes(
                d,
                x -> x.defineStages(List.of(
                        STAGES.get(1),
                        STAGES.get(0),
                        STAGES.get(2),
                        new StageDef("graph", true),
                        new StageDef("extra", true))));
        assertThat(d.stage("extra").position()).isEqualTo(4);

        DocumentStage stage = d.stage("segment");
        assertThat(stage.define(1, "retrieval")).isFalse();
        assertThat(stage.define(1, "enrichment")).isTrue();
        assertThat(stage.define(2, "enrichment")).isTrue();
    }

    @Test
    void aRunReturnsTheCurrentGenerationAndAnOlderOneRecordsNothing() throws Exception {
        Document d = readyConversation();
        int first = d.startStage("memos");
        d.appendSessions("h2", 200); // the memos run belongs to the old generation now
        stale(d);
        assertThat(d.finishStage("memos", first, StageStatus.DONE, null, null)).isFalse();
        assertThat(updatedAt(d)).as("an outcome not recorded changes nothing").isEqualTo(Instant.EPOCH);
        assertThat(d.stage("memos").status()).isEqualTo(StageStatus.PENDING);

        d.startIngestion();
        int second = d.startStage("segment");
        assertThat(second)
                .as("appending started a new generation")
                .isEqualTo(d.stage("segment").generation())
                .isOne();
        Instant retry = Instant.parse("2030-01-01T00:00:00Z");
        assertThat(d.finishStage("segment", second, StageStatus.FAILED, "rate limited", retry))
                .isTrue();
        DocumentStage segment = d.stage("segment");
        assertThat(segment.retryAt()).isEqualTo(retry);
        assertThat(segment.message()).isEqualTo("rate limited");
        assertThat(segment.attempts())
                .as("a new generation counts its attempts afresh")
                .isOne();
        assertThat(segment.state().retryAt()).isEqualTo(retry);
        assertThat(segment.state().status()).isEqualTo(StageStatus.FAILED);
    }

    @Test
    void aRunEndsDoneFailedOrPendingAndNothingElse() {
        Document d = document(DocumentKind.TEXT);
        d.startIngestion();
        int generation = d.startStage("segment");
        for (StageStatus wrong : List.of(StageStatus.RUNNING, StageStatus.SKIPPED)) {
            assertThatThrownBy(() -> d.finishStage("segment", generation, wrong, null, null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(wrong.name());
        }
        assertThat(d.finishStage("segment", generation, StageStatus.PENDING, "waiting", null))
                .isTrue();
        assertThat(d.stage("segment").status()).isEqualTo(StageStatus.PENDING);
        assertThatThrownBy(() -> d.finishStage("segment", generation, StageStatus.DONE, null, null))
                .as("only a running stage ends")
                .isInstanceOf(IllegalTransitionException.class);
    }

    @Test
    void aRebuildIsAllOrNoneAndARequestOnceMadeStays() {
        Document d = readyConversation();
        int running = d.startStage("memos");
        int segmentGeneration = d.stage("segment").generation();
        assertThatThrownBy(() -> d.rebuild(List.of("segment", "memos"), true))
                .isInstanceOf(IllegalTransitionException.class);
        assertThat(d.stage("segment").status())
                .as("the stage that could be rebuilt was not, since another could not")
                .isEqualTo(StageStatus.DONE);
        assertThat(d.stage("segment").generation()).isEqualTo(segmentGeneration);
        assertThat(d.status()).isEqualTo(DocumentStatus.READY);

        d.finishStage("memos", running, StageStatus.DONE, null, null);
        assertThat(d.stage("memos").requested()).isFalse();
        d.rebuild(List.of("memos"), false);
        assertThat(d.stage("memos").requested())
                .as("a reindex nobody asked the stage for")
                .isFalse();
        d.rebuild(List.of("memos"), true);
        assertThat(d.stage("memos").requested()).isTrue();
        assertThat(d.status())
                .as("only an enrichment rebuilt: still answerable")
                .isEqualTo(DocumentStatus.READY);
        d.stage("memos").skip("again");
        d.rebuild(List.of("memos"), false);
        assertThat(d.stage("memos").requested())
                .as("asked for once, still asked for")
                .isTrue();
    }

    @Test
    void aPlainReindexRetriesFailedEnrichmentsAndOnesWithGapsOnly() throws Exception {
        DocumentStage failed = stage("memos", "enrichment", StageStatus.FAILED, 0);
        assertThat(failed.retryIfFailed()).isTrue();
        assertThat(failed.status()).isEqualTo(StageStatus.PENDING);
        assertThat(failed.generation()).isOne();

        DocumentStage gaps = stage("memos", "enrichment", StageStatus.DONE, 1);
        assertThat(gaps.retryIfFailed()).isTrue();
        assertThat(gaps.status()).isEqualTo(StageStatus.PENDING);
        assertThat(gaps.failed()).isOne();

        DocumentStage complete = stage("memos", "enrichment", StageStatus.DONE, 0);
        assertThat(complete.retryIfFailed()).isFalse();
        assertThat(complete.status()).isEqualTo(StageStatus.DONE);
        assertThat(complete.generation()).isZero();

        DocumentStage running = stage("memos", "enrichment", StageStatus.RUNNING, 0);
        assertThatThrownBy(() -> running.rebuild(true)).isInstanceOf(IllegalTransitionException.class);
        assertThat(running.requested()).isFalse();

        DocumentStage retrieval = stage("segment", "retrieval", StageStatus.FAILED, 0);
        assertThat(retrieval.retryIfFailed())
                .as("a retrieval stage resumes with its document")
                .isFalse();
        assertThat(retrieval.status()).isEqualTo(StageStatus.FAILED);

        DocumentStage retrievalWithGaps = stage("segment", "retrieval", StageStatus.DONE, 2);
        assertThat(retrievalWithGaps.retryIfFailed()).isFalse();
        DocumentStage skipped = stage("memos", "enrichment", StageStatus.SKIPPED, 3);
        assertThat(skipped.retryIfFailed()).isFalse();
        assertThat(skipped.done()).isZero();
    }

    @Test
    void everyChangeToAStageMarksTheStageChanged() throws Exception {
        DocumentStage stage = new DocumentStage(UUID.randomUUID(), "memos", 0, "enrichment");
        stageChanges(stage, s -> s.define(1, "enrichment"));
        stageChanges(stage, s -> s.start());
        stageChanges(stage, s -> s.finish(0, StageStatus.FAILED, "boom", null));
        stageChanges(stage, s -> s.retryIfFailed());
        stageChanges(stage, s -> s.skip("not wanted"));
        stageChanges(stage, s -> s.rebuild(false));
        stageChanges(stage, DocumentStage::resume);
    }

    @FunctionalInterface
    interface StageChange {
        void apply(DocumentStage s) throws Exception;
    }

    private static void stageChanges(DocumentStage stage, StageChange change) throws Exception {
        Field updated = field(DocumentStage.class, "updatedAt");
        updated.set(stage, Instant.EPOCH);
        change.apply(stage);
        assertThat((Instant) updated.get(stage))
                .as("the stage is marked changed")
                .isAfter(Instant.EPOCH);
    }

    // ---------------------------------------------------------------- helpers

    @FunctionalInterface
    interface Transition {
        void apply(Document d) throws Exception;
    }

    private static void changes(Document d, Transition transition) throws Exception {
        stale(d);
        transition.apply(d);
        assertThat(updatedAt(d)).as("the root is marked changed").isAfter(Instant.EPOCH);
    }

    private static void stale(Document d) throws Exception {
        field(Document.class, "updatedAt").set(d, Instant.EPOCH);
    }

    private static Instant updatedAt(Document d) throws Exception {
        return (Instant) field(Document.class, "updatedAt").get(d);
    }

    private static Field field(Class<?> type, String name) throws Exception {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    private static DocumentStage stage(String name, String kind, StageStatus status, int failed) throws Exception {
        DocumentStage stage = new DocumentStage(UUID.randomUUID(), name, 0, kind);
        field(DocumentStage.class, "status").set(stage, status);
        field(DocumentStage.class, "failed").setInt(stage, failed);
        return stage;
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
                JsonMapper.builder().build().valueToTree(Map.of()),
                "h1",
                100,
                STAGES);
    }
}
