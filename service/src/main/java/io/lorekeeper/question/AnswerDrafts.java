package io.lorekeeper.question;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.lorekeeper.llm.AnswerStream;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.Trace;

/**
 * Records a question's streamed answer in its trace as {@code answer.delta} events. The event stream
 * reads the trace from the database (any replica may serve it), so pieces are gathered into one event
 * per {@code interval} rather than one row per token; the first piece of a draft goes out at once.
 */
final class AnswerDrafts implements AnswerStream {

    private final Trace trace;
    private final long intervalNanos;
    private final StringBuilder pending = new StringBuilder();
    private StringBuilder draft = new StringBuilder();
    private int stream;
    private boolean complete;
    private long lastWrite;

    AnswerDrafts(Trace trace, Duration interval) {
        this.trace = trace;
        this.intervalNanos = interval.toNanos();
    }

    @Override
    public synchronized void began(int stream, String template) {
        write();
        this.stream = stream;
        this.draft = new StringBuilder();
        this.complete = false;
        this.lastWrite = 0;
    }

    @Override
    public synchronized void delta(int stream, String text) {
        if (stream != this.stream) {
            began(stream, null);
        }
        draft.append(text);
        pending.append(text);
        if (lastWrite == 0 || System.nanoTime() - lastWrite >= intervalNanos) {
            write();
        }
    }

    @Override
    public synchronized void ended(int stream, boolean complete) {
        write();
        if (stream == this.stream) {
            this.complete = complete;
        }
    }

    private void write() {
        if (pending.isEmpty()) {
            return;
        }
        trace.record(new AnswerEvent.Delta(stream, pending.toString()));
        pending.setLength(0);
        lastWrite = System.nanoTime();
    }

    /** Whether any draft was streamed. */
    synchronized boolean streamed() {
        return stream > 0;
    }

    /**
     * The answer that replaces the drafts: the strategy's answer with the citations that passed the
     * check, and whether (and how) it differs from the last draft.
     */
    synchronized AnswerEvent.Final replacing(String answer, List<Citation> kept, int dropped) {
        write();
        List<String> changes = new ArrayList<>();
        String text = answer == null ? "" : answer;
        if (!complete) {
            changes.add("the last draft's stream was cut before the model finished it; this answer was written"
                    + " without it");
        } else if (!draft.toString().strip().equals(text.strip())) {
            changes.add("the answer differs from the streamed draft (the strategy chose another answer after"
                    + " streaming it)");
        }
        if (dropped > 0) {
            changes.add(dropped + (dropped == 1 ? " citation was" : " citations were")
                    + " dropped: not found verbatim in the documents");
        }
        return new AnswerEvent.Final(
                text, kept, stream, !changes.isEmpty(), changes.isEmpty() ? null : String.join("; ", changes));
    }
}
