package io.lorekeeper.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import io.lorekeeper.support.TestDatabase;

/**
 * Two migrations landed after a higher version had (V7 and V7.1 after V8, V13 after V14), and one
 * was reverted after databases had applied it (V20). A
 * database migrated at such a commit must still start on today's code: the service runs Flyway with
 * {@code out-of-order} so the late ones are applied, and validation passes. Each case migrates a
 * fresh database with only the files that existed at that commit, then with all of them as the
 * service does.
 */
class MigrationHistoryTest {

    @ParameterizedTest
    @ValueSource(strings = {"8", "14"})
    void aDatabaseMigratedWhenAHigherVersionLandedFirstStillMigratesAndValidates(String landedFirst, @TempDir Path then)
            throws IOException {
        Set<String> late = landedFirst.equals("8") ? Set.of("7", "7.1") : Set.of("13");
        TestDatabase.Connection db = migratedAt("history_v" + landedFirst, Double.parseDouble(landedFirst), late, then);

        Flyway today = today(db);
        assertThat(today.migrate().success).isTrue();
        today.validate();
        List<String> applied = Arrays.stream(today.info().applied())
                .map(MigrationInfo::getVersion)
                .map(Object::toString)
                .toList();
        assertThat(applied).containsAll(late);
        assertThat(today.info().pending()).isEmpty();
    }

    /**
     * V20 (impact-ordered postings) was applied by databases of the commits before its revert; it is
     * kept byte for byte so they validate, and V21 drops what it made.
     */
    @Test
    void aDatabaseThatAppliedTheRevertedPostingsMigratesAndLosesTheirTable(@TempDir Path then) throws IOException {
        TestDatabase.Connection db = migratedAt("history_v20", 20, Set.of(), then);

        Flyway today = today(db);
        assertThat(today.migrate().success).isTrue();
        today.validate();
        assertThat(today.info().pending()).isEmpty();
        try (Connection connection = DriverManager.getConnection(db.url(), db.username(), db.password());
                ResultSet rows = connection
                        .createStatement()
                        .executeQuery("SELECT to_regclass('keyword_posting') IS NULL,"
                                + " EXISTS (SELECT 1 FROM information_schema.columns"
                                + " WHERE table_name = 'document' AND column_name = 'keyword_generation')")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getBoolean(1)).as("keyword_posting dropped").isTrue();
            assertThat(rows.getBoolean(2)).as("keyword_generation added").isTrue();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Flyway over today's migrations, configured as the service runs it. */
    private static Flyway today(TestDatabase.Connection db) {
        return Flyway.configure()
                .dataSource(db.url(), db.username(), db.password())
                .locations("classpath:db/migration")
                .outOfOrder(serviceRunsOutOfOrder())
                .load();
    }

    /** A fresh database migrated with the files up to a version as they are today, less the late ones. */
    private static TestDatabase.Connection migratedAt(String name, double upTo, Set<String> late, Path then)
            throws IOException {
        for (Resource migration : migrations()) {
            String version = version(migration);
            if (Double.parseDouble(version) <= upTo && !late.contains(version)) {
                try (InputStream in = migration.getInputStream()) {
                    Files.copy(in, then.resolve(migration.getFilename()));
                }
            }
        }
        TestDatabase.Connection db = TestDatabase.sibling(name);
        Flyway.configure()
                .dataSource(db.url(), db.username(), db.password())
                .locations("filesystem:" + then)
                .load()
                .migrate();
        return db;
    }

    private static boolean serviceRunsOutOfOrder() {
        YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
        yaml.setResources(new ClassPathResource("application.yml"));
        Properties settings = yaml.getObject();
        return Boolean.parseBoolean(settings.getProperty("spring.flyway.out-of-order", "false"));
    }

    private static Resource[] migrations() throws IOException {
        return new PathMatchingResourcePatternResolver().getResources("classpath:db/migration/V*.sql");
    }

    /** "V7_1__chunk_context.sql" is version 7.1. */
    private static String version(Resource migration) {
        String name = migration.getFilename();
        return name.substring(1, name.indexOf("__")).replace('_', '.');
    }
}
