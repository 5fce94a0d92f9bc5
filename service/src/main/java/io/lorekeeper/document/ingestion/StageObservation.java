package io.lorekeeper.document.ingestion;

import io.lorekeeper.document.stage.IngestionStage;
import io.lorekeeper.document.stage.StageRun;
import io.lorekeeper.platform.RetryLaterException;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * One run of one ingestion stage as an observation: a {@code stage <name>} span (the model calls and
 * embeddings it makes are its children) and the {@code lorekeeper.ingestion.stage} timer by stage and
 * outcome ({@code done}, {@code failed}, {@code waiting} when a rate limit re-queued it).
 */
final class StageObservation {

    static final String NAME = "lorekeeper.ingestion.stage";

    private StageObservation() {}

    static void run(ObservationRegistry registry, IngestionStage stage, StageRun run) throws Exception {
        Observation observation = Observation.createNotStarted(NAME, registry)
                .contextualName("stage " + stage.name())
                .lowCardinalityKeyValue("stage", stage.name())
                .highCardinalityKeyValue(
                        "lorekeeper.document.id", run.document().id().toString())
                .start();
        String outcome = "failed";
        try (Observation.Scope scope = observation.openScope()) {
            stage.run(run);
            outcome = "done";
        } catch (RetryLaterException later) {
            outcome = "waiting";
            throw later;
        } catch (Exception | Error e) {
            observation.error(e);
            throw e;
        } finally {
            observation.lowCardinalityKeyValue("outcome", outcome);
            observation.stop();
        }
    }
}
