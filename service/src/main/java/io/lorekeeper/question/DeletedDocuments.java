package io.lorekeeper.question;

import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentDeleted;
import io.lorekeeper.platform.IllegalTransitionException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A question still waiting for its job (QUEUED, perhaps for a memory of the document) fails as
 * soon as one of its documents is deleted, with that as its reason, instead of waiting until its
 * job runs and then failing on a missing memory or document. Questions already running are left
 * to their job, which meets the missing document itself.
 *
 * <p>Idempotent, as a listener of the event registry must be: a second delivery of the same event
 * finds those questions FAILED, no longer QUEUED, and changes nothing.
 */
@Component
class DeletedDocuments {

    private static final Logger log = LoggerFactory.getLogger(DeletedDocuments.class);

    private final QuestionRepository questions;
    private final QuestionStore store;
    private final JsonMapper json;

    DeletedDocuments(QuestionRepository questions, QuestionStore store, JsonMapper json) {
        this.questions = questions;
        this.store = store;
        this.json = json;
    }

    @ApplicationModuleListener
    void on(DocumentDeleted deleted) {
        String reason = "document " + deleted.documentId() + " was deleted";
        for (UUID id : questions.findQueuedOn(deleted.tenantId(), deleted.documentId())) {
            try {
                store.change(id, q -> {
                    q.fail(reason);
                    // with the state or not at all, and last: an event stream ends at a finished status
                    new TraceRecorder(id, store, json).record(RunEvent.Status.failed(reason));
                });
                log.info("Question {} failed: {}", id, reason);
            } catch (IllegalTransitionException movedOn) {
                log.info("Question {} left as its job put it: {}", id, movedOn.getMessage());
            }
        }
    }
}
