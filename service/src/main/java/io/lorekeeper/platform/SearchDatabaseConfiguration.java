package io.lorekeeper.platform;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/** The {@link SearchDatabase}: a replica's URL and credentials (the primary's by default), or the primary itself. */
@Configuration(proxyBeanMethods = false)
class SearchDatabaseConfiguration {

    @Bean(destroyMethod = "close")
    SearchDatabase searchDatabase(
            JdbcClient jdbc,
            TransactionTemplate transaction,
            @Value("${lorekeeper.search.datasource.url:}") String url,
            @Value("${lorekeeper.search.datasource.username:${spring.datasource.username:}}") String username,
            @Value("${lorekeeper.search.datasource.password:${spring.datasource.password:}}") String password,
            @Value("${lorekeeper.search.datasource.maximum-pool-size:10}") int poolSize) {
        return url.isBlank()
                ? SearchDatabase.primary(jdbc, transaction)
                : SearchDatabase.replica(url, username, password, poolSize);
    }
}
