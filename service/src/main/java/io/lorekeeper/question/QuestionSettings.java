package io.lorekeeper.question;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param maxWallTime   a question still running after this long is stopped (its strategy sees cancellation)
 * @param maxWait       upper bound of the {@code waitSeconds} a client may ask for
 * @param eventsTimeout how long a server-sent event stream stays open
 * @param maxQuestionLength the longest question accepted, in characters
 * @param maxDocuments  the most documents one question may name
 * @param maxMemoryWait how long a question may wait for a memory its strategy needs to be built, from when it was asked
 * @param memoryPoll    how often a waiting question looks again
 * @param answerDeltaInterval how often a streamed answer's text is written to the trace (one
 *                      {@code answer.delta} event per interval, not one per token)
 */
@ConfigurationProperties("lorekeeper.questions")
record QuestionSettings(
        @DefaultValue("10m") Duration maxWallTime,
        @DefaultValue("60s") Duration maxWait,
        @DefaultValue("15m") Duration eventsTimeout,
        @DefaultValue("4000") int maxQuestionLength,
        @DefaultValue("50") int maxDocuments,
        @DefaultValue("30m") Duration maxMemoryWait,
        @DefaultValue("3s") Duration memoryPoll,
        @DefaultValue("100ms") Duration answerDeltaInterval) {}
