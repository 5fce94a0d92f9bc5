package io.lorekeeper.platform;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.zaxxer.hikari.HikariDataSource;

/**
 * Where the search SQL (vector and keyword search, the heaviest reads) runs: a read replica when
 * {@code lorekeeper.search.datasource.url} is set, the primary otherwise. A holder rather than a
 * second {@code DataSource}/{@code JdbcClient} bean, so that Spring Boot's auto-configured primary
 * ones stay in place. Replicas lag the primary slightly: a document that has just become READY may
 * be missing from a replica's results for that moment.
 */
public final class SearchDatabase implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SearchDatabase.class);

    private final JdbcTemplate template;
    private final JdbcClient jdbc;
    private final TransactionTemplate transaction;
    private final HikariDataSource replica;

    private SearchDatabase(
            JdbcTemplate template, JdbcClient jdbc, TransactionTemplate transaction, HikariDataSource replica) {
        this.template = template;
        this.jdbc = jdbc;
        this.transaction = transaction;
        this.replica = replica;
    }

    /** Searches on the primary, through the application's own clients, in the given transactions. */
    public static SearchDatabase primary(JdbcTemplate template, JdbcClient jdbc, TransactionTemplate transaction) {
        return new SearchDatabase(template, jdbc, transaction, null);
    }

    /** Searches on a replica with a small read-only pool of its own. */
    public static SearchDatabase replica(String url, String username, String password, int poolSize) {
        HikariDataSource pool = new HikariDataSource();
        pool.setPoolName("search-replica");
        pool.setJdbcUrl(url);
        pool.setUsername(username);
        pool.setPassword(password);
        pool.setMaximumPoolSize(poolSize);
        pool.setMinimumIdle(1);
        pool.setReadOnly(true);
        // pgjdbc applies read-only to autocommit statements too only in this mode: searches never write
        pool.addDataSourceProperty("readOnlyMode", "always");
        log.info("Search queries go to the replica {}", url);
        JdbcTemplate template = new JdbcTemplate(pool);
        return new SearchDatabase(
                template,
                JdbcClient.create(template),
                new TransactionTemplate(new DataSourceTransactionManager(pool)),
                pool);
    }

    public JdbcClient jdbc() {
        return jdbc;
    }

    /** The same database for what {@link JdbcClient} cannot do (several result sets from one statement). */
    public JdbcTemplate template() {
        return template;
    }

    /** Transactions on the same database as {@link #jdbc()} (a snapshot across several reads). */
    public TransactionTemplate transaction() {
        return transaction;
    }

    public boolean onReplica() {
        return replica != null;
    }

    @Override
    public void close() {
        if (replica != null) {
            replica.close();
        }
    }
}
