package io.lorekeeper.platform;

import javax.sql.DataSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The {@link SearchDatabase}: a replica's URL and credentials (the primary's by default), or the primary itself. */
@Configuration(proxyBeanMethods = false)
class SearchDatabaseConfiguration {

    @Bean(destroyMethod = "close")
    SearchDatabase searchDatabase(
            JdbcTemplate template,
            JdbcClient jdbc,
            DataSource dataSource,
            PlatformSettings settings,
            Environment environment) {
        PlatformSettings.SearchDatasource replica = settings.search().datasource();
        // the replica's credentials default to the primary's
        String username = replica.username().isBlank()
                ? environment.getProperty("spring.datasource.username", "")
                : replica.username();
        String password = replica.password().isBlank()
                ? environment.getProperty("spring.datasource.password", "")
                : replica.password();
        // Plain JDBC transactions, not the application's JPA ones: searches read rows and need no
        // Hibernate session (opening one per vector search was 4% of the CPU of hybrid search at 32
        // clients, before that search became one statement). Inside a JPA transaction they join it.
        return replica.url().isBlank()
                ? SearchDatabase.primary(
                        template, jdbc, new TransactionTemplate(new DataSourceTransactionManager(dataSource)))
                : SearchDatabase.replica(replica.url(), username, password, replica.maximumPoolSize());
    }
}
