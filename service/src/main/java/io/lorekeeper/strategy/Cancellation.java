package io.lorekeeper.strategy;

import java.util.concurrent.CancellationException;

/** Lets a long-running strategy notice that its question was cancelled or ran out of wall time. */
public interface Cancellation {

    boolean isCancelled();

    default void throwIfCancelled() {
        if (isCancelled()) {
            throw new CancellationException("the question was cancelled");
        }
    }

    Cancellation NEVER = () -> false;
}
