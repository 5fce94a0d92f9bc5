package io.lorekeeper.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import io.lorekeeper.support.TestDatabase;

/** The search SQL's database: a read replica's own read-only pool when configured, the primary otherwise. */
class SearchDatabaseTest {

    @Test
    void aReplicaUrlGetsAReadOnlyPoolOfItsOwnWhoseTransactionsRunOnIt() {
        TestDatabase.Connection replica = TestDatabase.sibling("replica");
        try (SearchDatabase search = SearchDatabase.replica(replica.url(), replica.username(), replica.password(), 2)) {
            JdbcClient jdbc = search.jdbc();

            assertThat(search.onReplica()).isTrue();
            assertThat(jdbc.sql("SELECT current_database()").query(String.class).single())
                    .isEqualTo(databaseName(replica.url()));
            assertThat(jdbc.sql("SHOW transaction_read_only")
                            .query(String.class)
                            .single())
                    .isEqualTo("on");
            assertThatThrownBy(() -> jdbc.sql("CREATE TABLE written_on_a_replica (id int)")
                            .update())
                    .hasMessageContaining("read-only");
            // transaction-local settings (hnsw.ef_search) reach the query only on the same connection
            String efSearch = search.transaction().execute(status -> {
                jdbc.sql("SELECT set_config('hnsw.ef_search', '77', true)")
                        .query(String.class)
                        .single();
                return jdbc.sql("SELECT current_setting('hnsw.ef_search')")
                        .query(String.class)
                        .single();
            });
            assertThat(efSearch).isEqualTo("77");
        }
    }

    @Test
    void withoutAReplicaSearchesUseThePrimarysClientAndTransactions() {
        TestDatabase.Connection primary = TestDatabase.get();
        DriverManagerDataSource dataSource =
                new DriverManagerDataSource(primary.url(), primary.username(), primary.password());
        JdbcTemplate template = new JdbcTemplate(dataSource);
        JdbcClient jdbc = JdbcClient.create(template);
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));

        try (SearchDatabase search = SearchDatabase.primary(template, jdbc, transaction)) {
            assertThat(search.onReplica()).isFalse();
            assertThat(search.jdbc()).isSameAs(jdbc);
            assertThat(search.template()).isSameAs(template);
            assertThat(search.transaction()).isSameAs(transaction);
            assertThat(search.jdbc()
                            .sql("SELECT current_database()")
                            .query(String.class)
                            .single())
                    .isEqualTo(databaseName(primary.url()));
        }
    }

    private static String databaseName(String url) {
        String path = url.substring(url.indexOf('/', "jdbc:postgresql://".length()) + 1);
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }
}
