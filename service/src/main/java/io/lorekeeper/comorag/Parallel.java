package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

import io.micrometer.context.ContextExecutorService;
import io.micrometer.context.ContextSnapshotFactory;

/**
 * Independent model calls made a few at a time (they mostly wait on the network), with results in
 * input order. The first failure is rethrown as it was thrown, so budget stops and rate-limit
 * re-queues reach their handlers unchanged; calls not started by then never start, and calls in
 * flight are let finish (not interrupted), so that what they store is complete before the caller
 * reports the failure.
 */
final class Parallel {

    private Parallel() {}

    static <T, R> List<R> map(List<T> items, int parallelism, Function<T, R> call) {
        if (items.isEmpty()) {
            return List.of();
        }
        if (parallelism <= 1 || items.size() == 1) {
            return items.stream().map(call).toList();
        }
        // the caller's observation goes with each call, so its model calls stay in the question's trace
        try (ExecutorService pool = ContextExecutorService.wrap(
                Executors.newFixedThreadPool(
                        Math.min(parallelism, items.size()), Thread.ofVirtual().factory()),
                ContextSnapshotFactory.builder().build())) {
            List<Future<R>> futures = new ArrayList<>();
            for (T item : items) {
                futures.add(pool.submit(() -> call.apply(item)));
            }
            List<R> out = new ArrayList<>(items.size());
            for (Future<R> future : futures) {
                try {
                    out.add(future.get());
                } catch (ExecutionException e) {
                    futures.forEach(f -> f.cancel(false));
                    if (e.getCause() instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    if (e.getCause() instanceof Error error) {
                        throw error;
                    }
                    throw new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    futures.forEach(f -> f.cancel(false));
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
            return out;
        }
    }
}
