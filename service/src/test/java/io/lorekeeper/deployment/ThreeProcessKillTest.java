package io.lorekeeper.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.lorekeeper.LorekeeperApplication;
import io.lorekeeper.support.BuildDirectory;
import io.lorekeeper.support.TestDatabase;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Three service processes against one database, as Kubernetes runs them: one {@code api} (serves
 * HTTP, schedules jobs, executes none) and two {@code worker}s. 20 documents and 100 extractive
 * questions go through the api; one worker is killed with SIGKILL while it holds jobs. Every
 * document must end READY and every question DONE exactly once, within a bounded wait: the dead
 * worker's jobs are revived by the survivor through db-scheduler's heartbeats (set short here).
 *
 * <p>The processes run from this JVM's classpath without the test classes (whose test
 * configurations would otherwise be component-scanned), on a database of their own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ThreeProcessKillTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration START_TIMEOUT = Duration.ofSeconds(240);
    private static final Duration FINISH_TIMEOUT = Duration.ofSeconds(120);
    private static final int DOCUMENTS = 20;
    private static final int QUESTIONS = 100;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<String, Service> services = new LinkedHashMap<>();
    private TestDatabase.Connection db;
    private Connection sql;

    private record Service(String name, Process process, int port, Path log) {
        URI uri(String path) {
            return URI.create("http://127.0.0.1:" + port + path);
        }
    }

    @BeforeAll
    void startThreeProcesses() throws Exception {
        db = TestDatabase.sibling("processes");
        sql = DriverManager.getConnection(db.url(), db.username(), db.password());
        // all three at once: Flyway's lock lets one migrate while the others wait
        services.put("api", start("api", "api"));
        services.put("worker-1", start("worker-1", "worker"));
        services.put("worker-2", start("worker-2", "worker"));
        for (Service service : services.values()) {
            await(
                    START_TIMEOUT,
                    "process " + service.name() + " ready (log: " + service.log() + ")",
                    () -> alive(service) && status(service, "/actuator/health/readiness") == 200);
        }
    }

    @AfterAll
    void killAll() throws SQLException {
        services.values().forEach(s -> s.process().destroyForcibly());
        if (sql != null) {
            sql.close();
        }
        for (Service s : services.values()) {
            try {
                s.process().waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void everyDocumentAndQuestionFinishesExactlyOnceWhenAWorkerIsKilled() throws Exception {
        Service api = services.get("api");
        Service victim = services.get("worker-1");
        long started = System.nanoTime();

        List<UUID> firstHalf = new ArrayList<>();
        for (int i = 0; i < DOCUMENTS / 2; i++) {
            firstHalf.add(upload(api, i));
        }
        await(
                FINISH_TIMEOUT,
                "first documents READY",
                () -> count("SELECT count(*) FROM document WHERE status = 'READY'") == firstHalf.size());

        // the second half of the uploads and all questions (about the first half) at once; the
        // victim dies as soon as it is seen holding a job, after a third of the questions were asked
        List<UUID> documents = new ArrayList<>(firstHalf);
        for (int i = DOCUMENTS / 2; i < DOCUMENTS; i++) {
            documents.add(upload(api, i));
        }
        Set<String> pickers = new HashSet<>();
        List<String> heldByVictim = List.of();
        List<UUID> questions = new ArrayList<>();
        for (int q = 0; q < QUESTIONS; q++) {
            int doc = q % firstHalf.size();
            questions.add(ask(
                    api,
                    firstHalf.get(doc),
                    QUESTION_TEMPLATES[q / firstHalf.size() % QUESTION_TEMPLATES.length].formatted(doc)));
            if (victim.process().isAlive() && q >= QUESTIONS / 3) {
                heldByVictim = killIfHolding(victim, pickers);
            }
        }
        BooleanSupplier killed = () -> !victim.process().isAlive();
        long deadline = System.nanoTime() + FINISH_TIMEOUT.toNanos();
        while (!killed.getAsBoolean() && System.nanoTime() < deadline && unfinished() > 0) {
            heldByVictim = killIfHolding(victim, pickers);
            Thread.sleep(10); // polls the task table, leaving the CPU to the services
        }
        assertThat(killed.getAsBoolean())
                .as("worker-1 was seen holding a job and killed")
                .isTrue();
        assertThat(heldByVictim).as("jobs worker-1 held when it died").isNotEmpty();
        long killedAt = System.nanoTime();

        await(FINISH_TIMEOUT, "all documents READY and questions DONE after the kill", () -> unfinished() == 0);
        long finished = System.nanoTime();
        System.out.printf(
                "[three-process] kill after %d ms, all finished %d ms later, %d ms in all; worker-1 held %s; %s%n",
                (killedAt - started) / 1_000_000,
                (finished - killedAt) / 1_000_000,
                (finished - started) / 1_000_000,
                heldByVictim,
                string(
                        "SELECT 'question run ms p50 ' || percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM finished_at - started_at) * 1000)"
                                + " || ', max ' || max(extract(epoch FROM finished_at - started_at) * 1000)"
                                + " || ', first asked to last done ms ' || extract(epoch FROM max(finished_at) - min(created_at)) * 1000 FROM question"));

        assertThat(pickers)
                .as("schedulers seen holding jobs")
                .isSubsetOf("worker-1", "worker-2")
                .doesNotContain("api");
        assertThat(services.get("worker-2").process().isAlive()).isTrue();
        assertThat(api.process().isAlive()).isTrue();

        // every document once: READY with contiguous chunks, no duplicate from the revived run
        for (UUID id : documents) {
            assertThat(string("SELECT status FROM document WHERE id = '" + id + "'"))
                    .as("document %s", id)
                    .isEqualTo("READY");
            assertThat(count("SELECT count(*) FROM chunk WHERE document_id = '" + id + "'"))
                    .as("chunks of %s", id)
                    .isPositive()
                    .isEqualTo(
                            count("SELECT coalesce(max(ordinal), -1) + 1 FROM chunk WHERE document_id = '" + id + "'"))
                    .isEqualTo(count("SELECT chunk_count FROM document WHERE id = '" + id + "'"));
            assertThat(count("SELECT count(*) FROM chunk WHERE document_id = '" + id + "' AND embedding IS NULL"))
                    .isZero();
        }
        // every question once: DONE with an extractive answer and exactly one DONE in its trace
        for (UUID id : questions) {
            assertThat(string("SELECT status FROM question WHERE id = '" + id + "'"))
                    .as("question %s", id)
                    .isEqualTo("DONE");
            assertThat(string("SELECT mode FROM question WHERE id = '" + id + "'"))
                    .isEqualTo("extractive");
            assertThat(count("SELECT count(*) FROM trace_event WHERE question_id = '" + id + "' AND type = 'run.status'"
                            + " AND payload->>'status' = 'DONE'"))
                    .as("DONE events of question %s", id)
                    .isEqualTo(1);
            assertThat(count("SELECT count(*) FROM trace_event WHERE question_id = '" + id + "' AND type = 'run.status'"
                            + " AND payload->>'status' = 'FAILED'"))
                    .as("FAILED events of question %s", id)
                    .isZero();
        }
        assertThat(count("SELECT count(*) FROM question")).isEqualTo(QUESTIONS);
        assertThat(count("SELECT count(*) FROM document")).isEqualTo(DOCUMENTS);
        // no job left behind, none lost: the table holds no execution of these entities any more
        assertThat(count("SELECT count(*) FROM scheduled_tasks")).isZero();
        // the questions were answered from the right document: the answer quotes its keeper
        Map<String, Integer> rightKeeper = new HashMap<>();
        for (UUID id : questions) {
            String q = string("SELECT question FROM question WHERE id = '" + id + "'");
            String answer = string("SELECT answer FROM question WHERE id = '" + id + "'");
            int doc = Integer.parseInt(q.replaceAll("\\D+", " ").strip().split(" ")[0]);
            if (answer.contains(KEEPERS[doc])) {
                rightKeeper.merge("right", 1, Integer::sum);
            }
        }
        assertThat(rightKeeper.getOrDefault("right", 0))
                .as("answers naming the document's keeper")
                .isGreaterThanOrEqualTo(QUESTIONS / 2);
    }

    @Test
    void aWorkerServesTheActuatorButNotTheApi() throws Exception {
        Service worker = services.get("worker-2");

        HttpResponse<String> refused = http.send(
                HttpRequest.newBuilder(worker.uri("/v1/documents")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(404);
        assertThat(refused.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(JSON.readTree(refused.body()).get("role").asString()).isEqualTo("worker");

        assertThat(status(worker, "/actuator/health/liveness")).isEqualTo(200);
        assertThat(status(services.get("api"), "/v1/strategies")).isEqualTo(200);
    }

    // --- the documents and questions -------------------------------------------------------------

    private static final String[] KEEPERS = {
        "Aldous Brennan",
        "Beatrix Colquhoun",
        "Cormac Dunleavy",
        "Delphine Ashworth",
        "Eamon Fairweather",
        "Fenella Gorse",
        "Gideon Halloran",
        "Hester Ingleby",
        "Ivo Jessop",
        "Juno Kettering",
        "Kasimir Lowther",
        "Lavinia Marsh",
        "Magnus Nettleton",
        "Nerys Oakhurst",
        "Oswin Pargeter",
        "Perpetua Quayle",
        "Quentin Rowntree",
        "Rosalind Stannard",
        "Silas Thackeray",
        "Tamsin Upcott"
    };

    private static final String[] QUESTION_TEMPLATES = {
        "Who keeps lighthouse number %d?",
        "Who rang the fog bell at lighthouse %d?",
        "Which keeper of station %d logged the storm?",
        "Who climbs the tower of lighthouse %d each dusk?",
        "Who painted the lantern room of lighthouse %d?",
        "Who wrote the log at station %d?",
        "Who mends the lamp of lighthouse %d?",
        "Who kept watch at lighthouse %d in winter?",
        "Who guards lighthouse %d?",
        "Who trimmed the wicks at lighthouse %d?"
    };

    private static String documentText(int n) {
        String keeper = KEEPERS[n];
        return """
                Lighthouse number %d stands on a granite spur where the tide runs hard twice a day.
                The keeper of lighthouse number %d is %s, who climbs the tower each dusk to light the lamp.
                In the winter of the great gale, %s rang the fog bell for nine hours without rest.
                The lantern room was painted green by %s in the spring after the storm.
                Supply boats call at station %d once a fortnight, weather permitting, with oil and flour.
                %s keeps a log of every ship sighted, and the log of station %d now fills eleven volumes.
                """.formatted(n, n, keeper, keeper, keeper, n, keeper, n);
    }

    private UUID upload(Service api, int n) throws Exception {
        String body = JSON.writeValueAsString(Map.of("title", "Lighthouse " + n, "text", documentText(n)));
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(api.uri("/v1/documents"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isIn(200, 202);
        return UUID.fromString(JSON.readTree(response.body()).get("id").asString());
    }

    private UUID ask(Service api, UUID document, String question) throws Exception {
        String body = JSON.writeValueAsString(Map.of(
                "documentIds", List.of(document), "question", question, "strategy", "extractive", "waitSeconds", 0));
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(api.uri("/v1/questions"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        // 202, or 200 when a worker already answered it before the api wrote its response (extractive is fast)
        assertThat(response.statusCode()).as(response.body()).isIn(200, 202);
        JsonNode view = JSON.readTree(response.body());
        return UUID.fromString(view.get("id").asString());
    }

    // --- processes ---------------------------------------------------------------------------------

    private Service start(String name, String role) throws IOException {
        int port = freePort();
        Path logs = buildDirectory().resolve("three-processes");
        Files.createDirectories(logs);
        Path log = logs.resolve(name + ".log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // small and quick to start: three of these share the machine with the test JVM
                "-Xmx400m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Xss512k",
                "-cp",
                serviceClasspath(),
                LorekeeperApplication.class.getName(),
                "--lorekeeper.role=" + role,
                "--server.port=" + port,
                "--spring.datasource.url=" + db.url(),
                "--spring.datasource.username=" + db.username(),
                "--spring.datasource.password=" + db.password(),
                "--spring.datasource.hikari.maximum-pool-size=10",
                "--spring.datasource.hikari.minimum-idle=1",
                "--lorekeeper.llm.base-url=",
                "--lorekeeper.llm.api-key=",
                "--lorekeeper.embedding.threads=1",
                "--logging.structured.format.console=",
                "--spring.main.banner-mode=off",
                // a dead worker's jobs are revived after missed-heartbeats-limit heartbeats (4 s here, 20 s by default)
                "--db-scheduler.scheduler-name=" + name,
                "--db-scheduler.threads=4",
                "--db-scheduler.polling-interval=200ms",
                "--db-scheduler.heartbeat-interval=1s",
                "--db-scheduler.missed-heartbeats-limit=4"));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new Service(name, process, port, log);
    }

    /** This JVM's classpath (surefire's real one when it runs us through a manifest-only jar) without test classes. */
    private static String serviceClasspath() {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return Arrays.stream(classpath.split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).endsWith("test-classes"))
                .reduce((a, b) -> a + File.pathSeparator + b)
                .orElseThrow();
    }

    private static Path buildDirectory() {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return Arrays.stream(classpath.split(File.pathSeparator))
                .map(Path::of)
                .filter(p -> p.endsWith("test-classes"))
                .map(Path::getParent)
                .findFirst()
                .orElse(BuildDirectory.PATH);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static boolean alive(Service service) {
        if (!service.process().isAlive()) {
            throw new AssertionError("process " + service.name() + " exited with "
                    + service.process().exitValue() + "; see " + service.log());
        }
        return true;
    }

    private int status(Service service, String path) {
        try {
            return http.send(
                            HttpRequest.newBuilder(service.uri(path))
                                    .timeout(Duration.ofSeconds(5))
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** SIGKILLs the worker when the task table shows it holding jobs; returns those jobs (empty if it held none). */
    private List<String> killIfHolding(Service victim, Set<String> pickers) {
        List<String> held = new ArrayList<>();
        query("SELECT picked_by, task_name, task_instance FROM scheduled_tasks WHERE picked", rs -> {
            pickers.add(rs.getString(1));
            if (victim.name().equals(rs.getString(1))) {
                held.add(rs.getString(2) + "/" + rs.getString(3));
            }
        });
        if (!held.isEmpty()) {
            victim.process().destroyForcibly();
            try {
                victim.process().waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return held;
    }

    private long unfinished() {
        return count(
                        "SELECT (SELECT count(*) FROM document WHERE status <> 'READY') + (SELECT count(*) FROM question WHERE status <> 'DONE')")
                + (DOCUMENTS - count("SELECT count(*) FROM document"));
    }

    private static void await(Duration timeout, String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    // --- database ------------------------------------------------------------------------------------

    private interface Row {
        void accept(ResultSet rs) throws SQLException;
    }

    private void query(String query, Row row) {
        try (Statement statement = sql.createStatement();
                ResultSet rs = statement.executeQuery(query)) {
            while (rs.next()) {
                row.accept(rs);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(query, e);
        }
    }

    private long count(String sql) {
        long[] value = {0};
        query(sql, rs -> value[0] = rs.getLong(1));
        return value[0];
    }

    private String string(String sql) {
        String[] value = {null};
        query(sql, rs -> value[0] = rs.getString(1));
        return value[0];
    }
}
