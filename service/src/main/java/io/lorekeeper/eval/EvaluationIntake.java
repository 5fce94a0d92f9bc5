package io.lorekeeper.eval;

import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.lorekeeper.eval.EvaluationJob.EvaluationScheduler;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.security.TenantQuotas;

/** Stores an evaluation's state change together with the job that acts on it: both commit, or neither. */
@Service
class EvaluationIntake {

    private final Evaluations evaluations;
    private final EvaluationStore store;
    private final EvaluationScheduler scheduler;
    private final TenantQuotas quotas;

    EvaluationIntake(
            Evaluations evaluations, EvaluationStore store, EvaluationScheduler scheduler, TenantQuotas quotas) {
        this.evaluations = evaluations;
        this.quotas = quotas;
        this.store = store;
        this.scheduler = scheduler;
    }

    @Transactional
    UUID start(UUID tenant, StartEvaluation request, int total) {
        UUID id = UUID.randomUUID();
        evaluations.save(Evaluation.queue(id, tenant, request.dataset(), EvaluationStore.tree(request), total));
        scheduler.schedule(id);
        return id;
    }

    /** Queues a FAILED run again, resuming after the questions it finished; any other state is refused (a 409). */
    @Transactional
    void retry(UUID tenant, UUID id) {
        Evaluation evaluation =
                evaluations.findByIdAndTenantId(id, tenant).orElseThrow(() -> ApiProblem.notFound("Evaluation", id));
        evaluation.retry(store.resultCount(id));
        quotas.requireTokens();
        // written first: a concurrent change of the run fails here (409), before the job row is touched
        evaluations.saveAndFlush(evaluation);
        scheduler.schedule(id);
    }
}
