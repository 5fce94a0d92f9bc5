package io.lorekeeper.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The suite runs in several JVMs at once (pom.xml), which stay apart only while each works in
 * databases named after its fork: two forks in one database run each other's queued jobs.
 */
class TestDatabaseTest {

    @Test
    void eachSurefireForkWorksInADatabaseNamedAfterItsNumber() {
        // Surefire sets "surefire.test.class.path" in its forks; elsewhere (an IDE) there is one JVM and no number
        if (System.getProperty("surefire.test.class.path") == null) {
            return;
        }
        String fork = System.getProperty(TestDatabase.FORK_PROPERTY);
        assertThat(fork)
                .as("pom.xml passes Surefire's fork number as " + TestDatabase.FORK_PROPERTY)
                .matches("[1-9][0-9]*");

        String base = databaseName(TestDatabase.get().url());
        assertThat(base).endsWith("_fork" + fork);
        assertThat(databaseName(TestDatabase.sibling("llm").url())).isEqualTo(base + "_llm");
    }

    private static String databaseName(String url) {
        String path = url.substring(url.indexOf('/', "jdbc:postgresql://".length()) + 1);
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }
}
