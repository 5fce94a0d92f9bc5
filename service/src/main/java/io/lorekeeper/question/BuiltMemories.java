package io.lorekeeper.question;

import java.util.UUID;

import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

import io.lorekeeper.document.MemoryBuilt;

/**
 * Starts the questions waiting for a document's memory as soon as it is built, rather than at their
 * job's next look ({@code lorekeeper.questions.memory-poll}, which stays the fallback: for a memory
 * that failed, or a listener that missed the event). The job is brought forward, on whichever
 * replica picks it; it checks the memories again and waits on if it needs another.
 *
 * <p>Idempotent, as a listener of the event registry must be: a second delivery brings forward jobs
 * that already ran, or finds their questions no longer QUEUED.
 */
@Component
class BuiltMemories {

    private final QuestionRepository questions;
    private final AnswerJob.AnswerScheduler jobs;

    BuiltMemories(QuestionRepository questions, AnswerJob.AnswerScheduler jobs) {
        this.questions = questions;
        this.jobs = jobs;
    }

    @ApplicationModuleListener
    void on(MemoryBuilt built) {
        for (UUID id : questions.findQueuedOn(built.tenantId(), built.documentId())) {
            jobs.schedule(id);
        }
    }
}
