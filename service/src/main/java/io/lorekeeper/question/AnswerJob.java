package io.lorekeeper.question;

import java.time.InstantSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;

import io.lorekeeper.platform.EntityJobs;
import io.lorekeeper.security.TenantDeletion;

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

    @Bean
    AnswerScheduler answerScheduler(SchedulerClient scheduler, OneTimeTask<Void> answerQuestionTask, JdbcClient jdbc) {
        return new AnswerScheduler(scheduler, answerQuestionTask, jdbc);
    }

    static class AnswerScheduler extends EntityJobs.Scheduler {
        AnswerScheduler(SchedulerClient scheduler, OneTimeTask<Void> task, JdbcClient jdbc) {
            super(scheduler, task, jdbc, "SELECT id FROM question WHERE tenant_id = ?");
        }

        /** A deleted tenant's questions: their waiting answer jobs are cancelled in the deleting transaction. */
        @EventListener
        void forget(TenantDeletion deletion) {
            cancelWaitingOfTenant(deletion.tenantId());
        }
    }
}
