package io.lorekeeper.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The PostgreSQL + pgvector every integration test talks to, chosen once per test JVM:
 * <ol>
 * <li>{@code LOREKEEPER_TEST_DB_URL} when set (scripts/test.sh sets it to a fresh database);</li>
 * <li>otherwise a Testcontainers {@code pgvector/pgvector} container when a Docker engine answers;</li>
 * <li>otherwise the local throw-away cluster of {@code scripts/pg-local.sh}, with a fresh database of this checkout's own.</li>
 * </ol>
 * When Surefire runs the suite in several JVMs at once ({@code forkCount} in pom.xml), each JVM works in a
 * database of its own beside that one, named after its fork number ({@value #FORK_PROPERTY}): forks sharing a
 * database would run each other's queued jobs, and each fork's siblings would drop the other's.
 */
public final class TestDatabase {

    public record Connection(String url, String username, String password) {}

    /** Surefire's fork number (1, 2, ...), passed by pom.xml; absent outside Surefire (an IDE, say). */
    static final String FORK_PROPERTY = "lorekeeper.test.fork";

    private static Connection connection;
    private static final Map<String, Connection> siblings = new HashMap<>();
    private static PostgreSQLContainer container;

    private TestDatabase() {}

    public static synchronized Connection get() {
        if (connection == null) {
            connection = start();
        }
        return connection;
    }

    /**
     * A fresh database beside {@link #get()}'s, on the same server, created once per test JVM. An
     * application context with different settings (an LLM configured, say) gets its own, because
     * contexts sharing one database also share db-scheduler's task table: a job queued by one
     * context could run in the other, with the other's settings.
     */
    public static synchronized Connection sibling(String suffix) {
        return siblings.computeIfAbsent(suffix, TestDatabase::createSibling);
    }

    private static Connection createSibling(String suffix) {
        return createBeside(get(), suffix);
    }

    private static Connection createBeside(Connection base, String suffix) {
        int slash = base.url().indexOf('/', "jdbc:postgresql://".length());
        int query = base.url().indexOf('?', slash);
        String name = base.url().substring(slash + 1, query < 0 ? base.url().length() : query) + "_" + suffix;
        try (java.sql.Connection admin = DriverManager.getConnection(base.url(), base.username(), base.password());
                Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS \"" + name + "\" WITH (FORCE)");
            statement.execute("CREATE DATABASE \"" + name + "\"");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the test database " + name + " beside " + base.url(), e);
        }
        String url = base.url().substring(0, slash + 1)
                + name
                + (query < 0 ? "" : base.url().substring(query));
        return new Connection(url, base.username(), base.password());
    }

    private static Connection start() {
        String fork = System.getProperty(FORK_PROPERTY, "");
        String url = System.getenv("LOREKEEPER_TEST_DB_URL");
        if (url != null && !url.isBlank()) {
            return ownFork(new Connection(url, "lorekeeper", "lorekeeper"), fork);
        }
        if (dockerAvailable()) {
            // a container per fork: nothing shared
            container = new PostgreSQLContainer(
                    DockerImageName.parse("pgvector/pgvector:pg16").asCompatibleSubstituteFor("postgres"));
            container.start();
            return new Connection(container.getJdbcUrl(), container.getUsername(), container.getPassword());
        }
        // pg-local.sh may start a cluster and resets the checkout's database: one fork at a time, and the
        // fork's own database is created before the next fork's reset drops the connections to that one.
        try (FileChannel channel = FileChannel.open(
                        Path.of(System.getProperty("java.io.tmpdir"), "lorekeeper-pg-local.lock"),
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                FileLock lock = channel.lock()) {
            return ownFork(new Connection(localCluster(), "lorekeeper", "lorekeeper"), fork);
        } catch (IOException e) {
            throw new IllegalStateException("cannot lock the local PostgreSQL set-up", e);
        }
    }

    private static Connection ownFork(Connection shared, String fork) {
        return fork.isBlank() ? shared : createBeside(shared, "fork" + fork);
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static String localCluster() {
        try {
            Process process = new ProcessBuilder(List.of("bash", "scripts/pg-local.sh", "test-db"))
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            String last = null;
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    last = line;
                }
            }
            if (process.waitFor() != 0 || last == null || !last.startsWith("jdbc:postgresql:")) {
                throw new IllegalStateException(
                        "scripts/pg-local.sh could not provide a database (exit " + process.exitValue() + ")");
            }
            return last;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run scripts/pg-local.sh", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
