package io.lorekeeper.platform;

import java.util.Optional;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.data.repository.CrudRepository;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies one transition to one aggregate in a transaction of its own, for background jobs that
 * change state outside any request. The aggregate's version guards the write: when another replica
 * (or request) changed it between our read and our commit, the commit fails, and the transition is
 * applied again to the fresh state, which may now refuse it ({@link IllegalTransitionException}).
 * So a decision taken on a stale state is never written, and nothing another writer stored is lost.
 */
@Component
public class Transitions {

    private static final Logger log = LoggerFactory.getLogger(Transitions.class);
    static final int ATTEMPTS = 3;

    private final TransactionTemplate transaction;

    public Transitions(PlatformTransactionManager transactions) {
        this.transaction = new TransactionTemplate(transactions);
        // a retry must run in a transaction of its own, not inside a caller's that the conflict spoiled
        this.transaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    /**
     * @return the aggregate as committed, or empty when there is none with this id
     * @throws IllegalTransitionException when the aggregate's (fresh) state refuses the change
     * @throws OptimisticLockingFailureException when every attempt met a concurrent change
     */
    public <A, ID> Optional<A> apply(CrudRepository<A, ID> repository, ID id, Consumer<? super A> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                return transaction.execute(status -> repository.findById(id).map(aggregate -> {
                    change.accept(aggregate);
                    return repository.save(aggregate);
                }));
            } catch (OptimisticLockingFailureException conflict) {
                if (attempt >= ATTEMPTS) {
                    throw conflict;
                }
                log.debug(
                        "{} {} changed concurrently; applying the transition again (attempt {})",
                        conflict.getClass().getSimpleName(),
                        id,
                        attempt + 1);
            }
        }
    }
}
