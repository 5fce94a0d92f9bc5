package io.lorekeeper.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The PostgreSQL + pgvector every integration test talks to, chosen once per test JVM:
 * <ol>
 * <li>{@code LOREKEEPER_TEST_DB_URL} when set (scripts/test.sh sets it to a fresh database);</li>
 * <li>otherwise a Testcontainers {@code pgvector/pgvector} container when a Docker engine answers;</li>
 * <li>otherwise the local throw-away cluster of {@code scripts/pg-local.sh}, with a fresh database.</li>
 * </ol>
 */
public final class TestDatabase {

    public record Connection(String url, String username, String password) {
    }

    private static Connection connection;
    private static PostgreSQLContainer container;

    private TestDatabase() {
    }

    public static synchronized Connection get() {
        if (connection == null) {
            connection = start();
        }
        return connection;
    }

    private static Connection start() {
        String url = System.getenv("LOREKEEPER_TEST_DB_URL");
        if (url != null && !url.isBlank()) {
            return new Connection(url, "lorekeeper", "lorekeeper");
        }
        if (dockerAvailable()) {
            container = new PostgreSQLContainer(DockerImageName.parse("pgvector/pgvector:pg16").asCompatibleSubstituteFor("postgres"));
            container.start();
            return new Connection(container.getJdbcUrl(), container.getUsername(), container.getPassword());
        }
        return new Connection(localCluster(), "lorekeeper", "lorekeeper");
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
            Process process = new ProcessBuilder(List.of("bash", "scripts/pg-local.sh", "reset", "lorekeeper_test"))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String last = null;
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    last = line;
                }
            }
            if (process.waitFor() != 0 || last == null || !last.startsWith("jdbc:postgresql:")) {
                throw new IllegalStateException("scripts/pg-local.sh could not provide a database (exit " + process.exitValue() + ")");
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
