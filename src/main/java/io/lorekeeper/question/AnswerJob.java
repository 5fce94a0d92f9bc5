package io.lorekeeper.question;

import java.time.Instant;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;

import io.lorekeeper.platform.RequeueOnRetryLater;

/** Answering as a db-scheduler job: any replica may run it, and a dead replica's questions are revived. */
@Configuration(proxyBeanMethods = false)
class AnswerJob {

    static final String TASK = "answer-question";
    private static final Logger log = LoggerFactory.getLogger(AnswerJob.class);

    @Bean
    OneTimeTask<Void> answerQuestionTask(QuestionRunner runner) {
        return Tasks.oneTime(TASK)
                .onFailure(new RequeueOnRetryLater<>())
                .onDeadExecutionRevive()
                .execute((instance, context) -> runner.run(UUID.fromString(instance.getId())));
    }

    @Bean
    AnswerScheduler answerScheduler(SchedulerClient scheduler, OneTimeTask<Void> answerQuestionTask, QuestionStore store) {
        return new AnswerScheduler(scheduler, answerQuestionTask, store);
    }

    static class AnswerScheduler {
        private final SchedulerClient scheduler;
        private final OneTimeTask<Void> task;
        private final QuestionStore store;

        AnswerScheduler(SchedulerClient scheduler, OneTimeTask<Void> task, QuestionStore store) {
            this.scheduler = scheduler;
            this.task = task;
            this.store = store;
        }

        void schedule(UUID questionId) {
            scheduler.scheduleIfNotExists(task.instance(questionId.toString()), Instant.now());
        }

        @EventListener(ApplicationReadyEvent.class)
        void recoverOrphans() {
            for (UUID id : store.orphaned(TASK)) {
                log.info("Re-queueing question {}", id);
                schedule(id);
            }
        }
    }
}
