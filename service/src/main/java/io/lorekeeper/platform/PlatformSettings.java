package io.lorekeeper.platform;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The platform's settings under {@code lorekeeper}: the request limit, the database health check and
 * the search database.
 *
 * @param http   the web edge
 * @param health the readiness checks
 * @param search the search database
 */
@ConfigurationProperties("lorekeeper")
record PlatformSettings(
        @DefaultValue Http http,
        @DefaultValue Health health,
        @DefaultValue Search search) {

    /** @param maxRequestSize largest request body the service reads; a larger one is refused with a 413 problem */
    record Http(@DefaultValue("128MB") DataSize maxRequestSize) {}

    /** @param databaseTimeout how long the readiness probe waits for the database before it reports it down */
    record Health(@DefaultValue("2s") Duration databaseTimeout) {}

    /** @param datasource the search database: a read replica, or the primary when its URL is blank */
    record Search(@DefaultValue SearchDatasource datasource) {}

    /**
     * @param url             JDBC URL of a read replica that searches run on; blank for the primary
     * @param username        the replica's user; the primary's ({@code spring.datasource.username}) when blank
     * @param password        the replica's password; the primary's when blank
     * @param maximumPoolSize connections in the replica's pool
     */
    record SearchDatasource(
            @DefaultValue("") String url,
            @DefaultValue("") String username,
            @DefaultValue("") String password,
            @DefaultValue("10") int maximumPoolSize) {}
}
