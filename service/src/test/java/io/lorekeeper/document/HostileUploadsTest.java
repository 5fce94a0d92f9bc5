package io.lorekeeper.document;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.document.files.ExtractionProcess;
import io.lorekeeper.document.files.FileExtractor;
import io.lorekeeper.document.files.FileLimits;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.HostileFiles;
import io.lorekeeper.support.SecuredIntegrationTest;
import io.lorekeeper.support.Tenancy;
import io.lorekeeper.support.Tenancy.TenantWithKey;

/**
 * Two hostile uploads at once, over HTTP, with keys on: while their extractions run, the service's
 * readiness and another tenant's search still answer within two seconds; both uploads are answered
 * within the extraction deadline; afterwards no extraction thread or process is still working, the
 * service's heap is where it was, and an ordinary upload goes through.
 */
@SecuredIntegrationTest
class HostileUploadsTest {

    private static final Duration PROMPT = Duration.ofSeconds(2);
    /** What the service's heap may grow by: the uploads and their answers, never a parse. */
    private static final long HEAP_BOUND = 128L << 20;

    @Autowired
    Api api;

    @Autowired
    FileExtractor extractor;

    @Autowired
    FileLimits limits;

    @Test
    void twoHostileUploadsLeaveTheServiceAnsweringAndNothingRunning() throws Exception {
        Tenancy tenancy = new Tenancy(api);
        TenantWithKey attacker = tenancy.tenant("attacker");
        TenantWithKey neighbour = tenancy.tenant("neighbour");
        String marker = UUID.randomUUID().toString();
        UUID lighthouse = neighbour
                .api()
                .ingest(aText("The lighthouse on Eilean Glas " + marker + " was first lit in 1789.")
                        .build());
        byte[] inflating = HostileFiles.inflatingPdf(256L << 20);
        byte[] tables = HostileFiles.nestedTablesHtml(70_000);
        long heapBefore = usedHeapAfterGc();

        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            long sent = System.nanoTime();
            Future<Api.Response> pdf = clients.submit(() -> attacker.api()
                    .upload("/v1/documents/files", "inflating.pdf", "application/pdf", inflating, Map.of()));
            Future<Api.Response> html = clients.submit(
                    () -> attacker.api().upload("/v1/documents/files", "tables.html", "text/html", tables, Map.of()));
            awaitExtractions(2);

            Timed<Api.Response> ready = timed(() -> api.get("/actuator/health/readiness"));
            Timed<Api.Response> search = timed(() -> neighbour
                    .api()
                    .post(
                            "/v1/search",
                            Map.of("documentIds", List.of(lighthouse), "query", "when was the light first lit")));
            int stillRunning = extractor.extractionsRunning();

            assertThat(stillRunning)
                    .as("the probes ran while an extraction did")
                    .isPositive();
            assertThat(ready.result().status()).as(ready.result().body()).isEqualTo(200);
            assertThat(ready.took()).isLessThan(PROMPT);
            assertThat(search.result().status()).as(search.result().body()).isEqualTo(200);
            assertThat(search.result().body()).contains(marker);
            assertThat(search.took()).isLessThan(PROMPT);

            Duration deadline =
                    limits.maxExtractionTime().plus(ExtractionProcess.GRACE).plusSeconds(15);
            Api.Response refused = pdf.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(refused.status()).as(refused.body()).isEqualTo(400);
            assertThat(refused.json().get("field").asString()).isEqualTo("file");
            assertThat(html.get(deadline.toMillis(), TimeUnit.MILLISECONDS).status())
                    .isIn(202, 400);
            assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(deadline);
        }

        assertThat(extractor.extractionsRunning()).isZero();
        assertThat(Thread.getAllStackTraces().keySet())
                .filteredOn(thread -> thread.getName().startsWith("file-extraction-"))
                .as("extraction threads still working")
                .noneMatch(thread -> thread.getState() == Thread.State.RUNNABLE);
        assertNoChildProcessWorks();
        assertThat(usedHeapAfterGc() - heapBefore).isLessThan(HEAP_BOUND);

        Api.Response ordinary = attacker.api()
                .upload(
                        "/v1/documents/files",
                        "notes.html",
                        "text/html",
                        ("<html><body><h1>Notes</h1><p>An ordinary page " + marker + ".</p></body></html>").getBytes(),
                        Map.of());
        assertThat(ordinary.status()).as(ordinary.body()).isEqualTo(202);
    }

    private void awaitExtractions(int count) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (extractor.extractionsRunning() < count && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertThat(extractor.extractionsRunning()).as("extractions started").isEqualTo(count);
    }

    /** Child processes may stay (a spare waits for the next file) but none may still be working. */
    private static void assertNoChildProcessWorks() throws InterruptedException {
        List<ProcessHandle> children = ProcessHandle.current()
                .descendants()
                .filter(ProcessHandle::isAlive)
                .toList();
        List<Duration> before = children.stream().map(HostileUploadsTest::cpu).toList();
        Thread.sleep(2_000);
        for (int i = 0; i < children.size(); i++) {
            Duration used = cpu(children.get(i)).minus(before.get(i));
            assertThat(used)
                    .as(
                            "CPU used in 2 s by %s",
                            children.get(i).info().commandLine().orElse("?"))
                    .isLessThan(Duration.ofMillis(500));
        }
    }

    private static Duration cpu(ProcessHandle process) {
        return process.info().totalCpuDuration().orElse(Duration.ZERO);
    }

    private static long usedHeapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private record Timed<T>(T result, Duration took) {}

    private static <T> Timed<T> timed(java.util.function.Supplier<T> call) {
        long start = System.nanoTime();
        T result = call.get();
        return new Timed<>(result, Duration.ofNanos(System.nanoTime() - start));
    }
}
