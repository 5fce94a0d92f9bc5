package io.lorekeeper.question;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.lorekeeper.strategy.Trace;
import io.lorekeeper.strategy.TraceEvent;
import tools.jackson.databind.json.JsonMapper;

/** Stores each trace event as a row as soon as it happens, so that progress streams while the strategy runs. */
final class TraceRecorder implements Trace {

    private final UUID questionId;
    private final QuestionStore store;
    private final JsonMapper json;
    private final AtomicInteger seq;

    TraceRecorder(UUID questionId, QuestionStore store, JsonMapper json) {
        this.questionId = questionId;
        this.store = store;
        this.json = json;
        this.seq = new AtomicInteger(store.nextTraceSeq(questionId));
    }

    /** The seq the next event will get. */
    int nextSeq() {
        return seq.get();
    }

    @Override
    public void record(TraceEvent event) {
        // Serialised through the interface so that the stored payload carries its "type" too.
        String payload = json.writerFor(TraceEvent.class).writeValueAsString(event);
        append(TraceEvent.typeOf(event), payload);
    }

    private synchronized void append(String type, String payload) {
        store.appendTrace(questionId, seq.getAndIncrement(), type, payload);
    }
}
