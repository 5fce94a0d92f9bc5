// Requests back to back from `clients` threads for a measured window after a warm-up: the latency
// of every request that starts and ends inside the window, failures, the load average halfway,
// where the CPU went in the window and the service's memory (ProcessCpu).

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

final class Loaded {

    private Loaded() {
    }

    /** One request; {@code n} counts the requests of the run, so each can take the next query of a pool. */
    interface Request {
        void send(int n) throws Exception;
    }

    /** @param ms the latencies in the window, in no particular order */
    record Result(double[] ms, int failures, String loadDuring, String cpu, String memory) {
        double perSecond(int seconds) {
            return ms.length / (double) seconds;
        }
    }

    static Result run(int clients, int warmupSeconds, int seconds, Request request) throws Exception {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        long warmEnd = System.nanoTime() + warmupSeconds * 1_000_000_000L;
        long end = warmEnd + seconds * 1_000_000_000L;
        CountDownLatch ready = new CountDownLatch(clients);
        List<double[]> perClient = new ArrayList<>();
        String loadDuring;
        String memory;
        String cpu;
        try (ExecutorService threads = Executors.newFixedThreadPool(clients)) {
            List<Future<double[]>> futures = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                futures.add(threads.submit(() -> {
                    ready.countDown();
                    ready.await();
                    double[] ms = new double[1024];
                    int n = 0;
                    while (true) {
                        long start = System.nanoTime();
                        if (start >= end) {
                            break;
                        }
                        try {
                            request.send(next.getAndIncrement());
                        } catch (Exception e) {
                            failures.incrementAndGet();
                            continue;
                        }
                        long stop = System.nanoTime();
                        if (start >= warmEnd && stop <= end) {
                            if (n == ms.length) {
                                ms = Arrays.copyOf(ms, n * 2);
                            }
                            ms[n++] = (stop - start) / 1e6;
                        }
                    }
                    return Arrays.copyOf(ms, n);
                }));
            }
            Thread.sleep(Math.max(0, (warmEnd - System.nanoTime()) / 1_000_000));
            ProcessCpu measuredFrom = ProcessCpu.sample();
            Thread.sleep(seconds * 500L);
            loadDuring = ThroughputBench.loadAverage();
            memory = ProcessCpu.serviceMemory();
            for (Future<double[]> f : futures) {
                perClient.add(f.get());
            }
            cpu = ProcessCpu.sample().since(measuredFrom);
        }
        double[] all = perClient.stream().flatMapToDouble(Arrays::stream).toArray();
        return new Result(all, failures.get(), loadDuring, cpu, memory);
    }
}
