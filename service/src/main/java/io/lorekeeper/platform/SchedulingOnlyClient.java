package io.lorekeeper.platform;

import java.util.List;
import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.boot.config.DbSchedulerConfigurationSupport;
import com.github.kagkarlsson.scheduler.task.Task;

/**
 * The api role's job client: it inserts and reschedules executions in db-scheduler's table but
 * never polls, executes, heartbeats or revives; workers do all of that. The data source is wrapped
 * as the starter wraps it, so a job scheduled inside a transaction is committed with it.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = ProcessRole.PROPERTY, havingValue = "api")
class SchedulingOnlyClient {

    private static final Logger log = LoggerFactory.getLogger(SchedulingOnlyClient.class);

    @Bean
    SchedulerClient schedulerClient(
            DataSource dataSource,
            List<Task<?>> tasks,
            // db-scheduler's own property, which its starter reads too: not one of ours to fold into a record
            @Value("${db-scheduler.table-name:scheduled_tasks}") String table) {
        log.info("Role api: jobs are scheduled here and executed by worker processes ({} tasks known)", tasks.size());
        return SchedulerClient.Builder.create(DbSchedulerConfigurationSupport.configureDataSource(dataSource), tasks)
                .tableName(table)
                .build();
    }
}
