package io.lorekeeper.question;

import java.time.InstantSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;

import io.lorekeeper.platform.EntityJobs;
import io.lorekeeper.security.TenantJobScheduler;

/** Answering as a db-scheduler job: any replica may run it, and a dead replica's questions are revived. */
@Configuration(proxyBeanMethods = false)
class AnswerJob {

    static final String TASK = "answer-question";

    @Bean
    OneTimeTask<Void> answerQuestionTask(QuestionRunner runner) {
        return EntityJobs.task(TASK, runner::run);
    }

    /** What a question's wall-time limit is measured by; tests move it rather than wait ten minutes. */
    @Bean
    InstantSource questionClock() {
        return InstantSource.system();
    }

    @Component
    static class AnswerScheduler extends TenantJobScheduler {
        AnswerScheduler(SchedulerClient scheduler, OneTimeTask<Void> answerQuestionTask, JdbcClient jdbc) {
            super(scheduler, answerQuestionTask, jdbc, "SELECT id FROM question WHERE tenant_id = ?");
        }
    }
}
