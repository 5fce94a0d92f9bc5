package io.lorekeeper.platform;

import java.time.Duration;
import java.time.Instant;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.ExecutionOperations;
import com.github.kagkarlsson.scheduler.task.FailureHandler;

/**
 * What a background job does when its handler throws: a {@link RetryLaterException} re-queues the
 * job for when it asks; anything else (the database unreachable while the job tried to record its
 * own failure, say) is retried a minute later, at most five times, then dropped with a log line.
 * Job handlers record ordinary failures themselves and do not throw.
 */
public final class RequeueOnRetryLater<T> implements FailureHandler<T> {

    private static final Logger log = LoggerFactory.getLogger(RequeueOnRetryLater.class);
    private static final int MAX_UNEXPECTED = 5;

    @Override
    public void onFailure(ExecutionComplete complete, ExecutionOperations<T> operations) {
        Throwable cause = complete.getCause().orElse(null);
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RetryLaterException later) {
                log.info(
                        "Job {} re-queued for {} s: {}",
                        complete.getExecution().taskInstance,
                        later.after().toSeconds(),
                        later.getMessage());
                operations.reschedule(complete, Instant.now().plus(later.after()));
                return;
            }
        }
        int failures = complete.getExecution().consecutiveFailures + 1;
        if (failures >= MAX_UNEXPECTED) {
            log.error(
                    "Job {} failed {} times in a row; giving up",
                    complete.getExecution().taskInstance,
                    failures,
                    cause);
            operations.remove();
            return;
        }
        log.warn("Job {} failed unexpectedly; retrying in a minute", complete.getExecution().taskInstance, cause);
        operations.reschedule(complete, Instant.now().plus(Duration.ofMinutes(1)));
    }
}
