package io.lorekeeper.eval;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.Environment;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.stereotype.Component;

import io.lorekeeper.evaluator.EvalItem;
import io.lorekeeper.evaluator.EvalRunner;
import io.lorekeeper.evaluator.EvalRunner.ItemResult;
import io.lorekeeper.evaluator.Report;
import io.lorekeeper.evaluator.ServiceClient;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.platform.Failures;
import io.lorekeeper.platform.IllegalTransitionException;
import io.lorekeeper.platform.RetryLaterException;
import io.lorekeeper.security.InternalKeys;

/**
 * Runs one stored evaluation (the job's work) against this replica's own HTTP port. It keeps each
 * finished question, so a second run of the same evaluation (revived after its replica died, or
 * retried after a failure) asks only what is missing; documents are de-duplicated by content, so
 * ingesting them again costs little. Any failure fails the evaluation with the reason, to be retried.
 */
@Component
class EvaluationRun {

    private static final Logger log = LoggerFactory.getLogger(EvaluationRun.class);

    private final EvaluationStore store;
    private final LlmGateway gateway;
    private final Environment environment;
    private final DataFolder data;
    private final InternalKeys keys;

    EvaluationRun(
            EvaluationStore store, LlmGateway gateway, Environment environment, DataFolder data, InternalKeys keys) {
        this.keys = keys;
        this.store = store;
        this.gateway = gateway;
        this.environment = environment;
        this.data = data;
    }

    void run(UUID id) {
        EvaluationStore.Stored stored = store.find(id).orElse(null);
        if (stored == null || stored.finished()) {
            return;
        }
        try {
            store.change(id, Evaluation::start);
        } catch (IllegalTransitionException finished) {
            log.info("evaluation {} was not started: {}", id, finished.getMessage());
            return;
        }
        // The run is a client of this service acting for the evaluation's tenant, with a key only this process knows.
        try (InternalKeys.Lease key = keys.issue(stored.tenantId())) {
            StartEvaluation request = stored.startRequest();
            List<EvalItem> items = data.items(request);
            Judge judge = null;
            if (request.judged()) {
                if (!gateway.isConfigured()) {
                    throw new IllegalStateException(
                            "the LLM judge was asked for, but no LLM is configured on the replica running it");
                }
                judge = new Judge(gateway, stored.tenantId());
            }
            String base = "http://localhost:" + environment.getRequiredProperty("local.server.port");
            Report report = new EvalRunner(new ServiceClient(base, key.key()), judge)
                    .run(request.run(items), store.results(id), new EvalRunner.Listener() {
                        // one writer at a time: the questions run in parallel, and each report changes the same row
                        @Override
                        public synchronized void progress(int done, int total) {
                            recordProgress(id, done, total);
                        }

                        @Override
                        public void finished(ItemResult result) {
                            store.saveResult(id, result);
                        }
                    });
            store.change(id, e -> e.finish(EvaluationStore.tree(report)));
        } catch (Exception e) {
            stopped(id, e);
        }
    }

    /**
     * A run that ended early: suspended by a shutdown (the job runs again), left as another writer
     * put it, or failed with the reason.
     */
    private void stopped(UUID id, Exception e) {
        if (e instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
            // Stopped by a shutdown, not failed: clear the flag to write, and let the job run again.
            Thread.interrupted();
            int kept = store.resultCount(id);
            try {
                store.change(id, evaluation -> evaluation.suspend(kept));
            } catch (IllegalTransitionException movedOn) {
                log.info("evaluation {} not suspended: {}", id, movedOn.getMessage());
                return;
            }
            throw new RetryLaterException("evaluation " + id + " stopped by a shutdown", Duration.ofSeconds(5));
        }
        if (e instanceof IllegalTransitionException movedOn) {
            // another writer finished or failed it meanwhile (a revived job on a second replica): its state stands
            log.info("evaluation {} left as another writer put it: {}", id, movedOn.getMessage());
            return;
        }
        log.warn("evaluation {} failed", id, e);
        try {
            store.change(id, evaluation -> evaluation.fail(Failures.describe(e)));
        } catch (IllegalTransitionException movedOn) {
            log.info("evaluation {} not marked failed: {}", id, movedOn.getMessage());
        }
    }

    /**
     * Progress is a count, not a decision: when the evaluation has left RUNNING meanwhile (failed
     * or finished by another writer), the report is dropped and the questions go on.
     */
    private void recordProgress(UUID id, int done, int total) {
        try {
            store.change(id, e -> e.progress(done, total));
        } catch (IllegalTransitionException | OptimisticLockingFailureException notNow) {
            log.debug("evaluation {}: progress not recorded: {}", id, notNow.getMessage());
        }
    }
}
