package io.lorekeeper.question;

import java.time.InstantSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;

import io.lorekeeper.platform.EntityJobs;

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
    AnswerScheduler answerScheduler(SchedulerClient scheduler, OneTimeTask<Void> answerQuestionTask) {
        return new AnswerScheduler(scheduler, answerQuestionTask);
    }

    static class AnswerScheduler extends EntityJobs.Scheduler {
        AnswerScheduler(SchedulerClient scheduler, OneTimeTask<Void> task) {
            super(scheduler, task);
        }
    }
}
