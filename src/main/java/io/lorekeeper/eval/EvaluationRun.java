package io.lorekeeper.eval;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

import io.lorekeeper.eval.EvalRunner.ItemResult;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.platform.Failures;
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
    private final Path dataDir;
    private final InternalKeys keys;

    EvaluationRun(EvaluationStore store, LlmGateway gateway, Environment environment,
            @Value("${lorekeeper.eval.data-dir:data}") String dataDir, InternalKeys keys) {
        this.keys = keys;
        this.store = store;
        this.gateway = gateway;
        this.environment = environment;
        this.dataDir = Path.of(dataDir).toAbsolutePath().normalize();
    }

    void run(UUID id) {
        EvaluationStore.Stored stored = store.find(id).orElse(null);
        if (stored == null || stored.finished()) {
            return;
        }
        store.markRunning(id);
        // The run is a client of this service acting for the evaluation's tenant, with a key only this process knows.
        try (InternalKeys.Lease key = keys.issue(stored.tenantId())) {
            StartEvaluation request = stored.startRequest();
            List<EvalItem> items = request.load(dataDir);
            Judge judge = null;
            if (request.judged()) {
                if (!gateway.isConfigured()) {
                    throw new IllegalStateException("the LLM judge was asked for, but no LLM is configured on the replica running it");
                }
                judge = new Judge(gateway, stored.tenantId());
            }
            String base = "http://localhost:" + environment.getRequiredProperty("local.server.port");
            Report report = new EvalRunner(new ServiceClient(base, key.key()), judge).run(request.run(items), store.results(id),
                    new EvalRunner.Listener() {
                        @Override
                        public void progress(int done, int total) {
                            store.progress(id, done, total);
                        }

                        @Override
                        public void finished(ItemResult result) {
                            store.saveResult(id, result);
                        }
                    });
            store.finish(id, report);
        } catch (Exception e) {
            if (e instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
                // Stopped by a shutdown, not failed: clear the flag to write, and let the job run again.
                Thread.interrupted();
                store.markQueued(id);
                throw new RetryLaterException("evaluation " + id + " stopped by a shutdown", Duration.ofSeconds(5));
            }
            log.warn("evaluation {} failed", id, e);
            store.fail(id, Failures.describe(e));
        }
    }
}
