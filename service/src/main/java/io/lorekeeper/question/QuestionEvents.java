package io.lorekeeper.question;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import io.lorekeeper.question.QuestionApi.TraceEvent;

/**
 * Streams a question's trace as server-sent events. The trace lives in the database, so the
 * stream works whichever replica runs the question: each open stream polls for events newer than
 * the last one sent, and ends with an {@code end} event once the question has finished.
 */
@Component
class QuestionEvents implements DisposableBean {

    private static final long POLL_MS = 200;

    private final QuestionStore store;
    private final ScheduledExecutorService poller = Executors.newScheduledThreadPool(
            2, Thread.ofPlatform().name("question-events-", 0).daemon().factory());

    QuestionEvents(QuestionStore store) {
        this.store = store;
    }

    SseEmitter stream(UUID questionId, int afterSeq, Duration timeout) {
        SseEmitter emitter = new SseEmitter(timeout.toMillis());
        AtomicInteger last = new AtomicInteger(afterSeq);
        AtomicReference<ScheduledFuture<?>> task = new AtomicReference<>();
        Runnable stop = () -> {
            ScheduledFuture<?> f = task.get();
            if (f != null) {
                f.cancel(false);
            }
        };
        emitter.onCompletion(stop);
        emitter.onTimeout(stop);
        emitter.onError(e -> stop.run());
        task.set(poller.scheduleWithFixedDelay(
                () -> {
                    try {
                        // Read the status first: events written before a finished status are then all visible.
                        QuestionStatus status = store.status(questionId).orElse(QuestionStatus.FAILED);
                        List<TraceEvent> events = store.trace(questionId, last.get());
                        for (TraceEvent event : events) {
                            emitter.send(SseEmitter.event()
                                    .id(String.valueOf(event.seq()))
                                    .name(event.type())
                                    .data(event));
                            last.set(event.seq());
                        }
                        if (status.isFinished()) {
                            emitter.send(SseEmitter.event().name("end").data(java.util.Map.of("status", status)));
                            emitter.complete();
                            stop.run();
                        }
                    } catch (IOException | IllegalStateException clientGone) {
                        stop.run();
                    } catch (RuntimeException e) {
                        emitter.completeWithError(e);
                        stop.run();
                    }
                },
                0,
                POLL_MS,
                TimeUnit.MILLISECONDS));
        return emitter;
    }

    @Override
    public void destroy() {
        poller.shutdownNow();
    }
}
