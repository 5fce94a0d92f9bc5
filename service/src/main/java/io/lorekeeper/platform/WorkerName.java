package io.lorekeeper.platform;

import java.net.InetAddress;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.boot.config.DbSchedulerCustomizer;

/**
 * This process's name among the replicas sharing the database: its host name (the pod's name under
 * Kubernetes) and a random suffix, since two processes on one host (or two containers both called
 * "vm") must not look alike. db-scheduler records it as {@code picked_by} of the jobs this process
 * runs, and a question's trace names it at each run, so an operator can tell which replica holds
 * a job and where a revived run took over. {@code db-scheduler.scheduler-name} still names it when set.
 */
public record WorkerName(String value) {

    static WorkerName ofThisProcess() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (java.io.IOException | SecurityException e) {
                host = "lorekeeper";
            }
        }
        byte[] suffix = new byte[3];
        ThreadLocalRandom.current().nextBytes(suffix);
        return new WorkerName(host + "-" + HexFormat.of().formatHex(suffix));
    }

    @Configuration(proxyBeanMethods = false)
    static class Config {

        /** {@code db-scheduler.scheduler-name}, when an operator set one; else the host name and a suffix. */
        @Bean
        WorkerName workerName(org.springframework.core.env.Environment environment) {
            String configured = environment.getProperty("db-scheduler.scheduler-name");
            return configured == null || configured.isBlank() ? WorkerName.ofThisProcess() : new WorkerName(configured);
        }

        @Bean
        DbSchedulerCustomizer schedulerName(WorkerName name) {
            return new DbSchedulerCustomizer() {
                @Override
                public Optional<SchedulerName> schedulerName() {
                    return Optional.of(new SchedulerName.Fixed(name.value()));
                }
            };
        }
    }
}
