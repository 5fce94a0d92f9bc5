/**
 * Questions: the API to ask, the background job that runs a strategy, the stored answer with its
 * verified citations, and the trace streamed as progress.
 *
 * <p>Persistence: a question is the {@code Question} aggregate (JPA, versioned), whose methods make
 * the legal state changes (QUEUED, RUNNING, DONE, FAILED, and back to QUEUED by a retry or a rate
 * limit) and refuse the others. The intake stores it and schedules its job in one transaction; the
 * job changes it through {@code QuestionStore.change}, which re-applies a change that lost a race
 * to another writer on the fresh state. Trace events are append-only rows written while a strategy
 * runs and streamed in ranges: plain SQL on {@code JdbcClient}, as is the status poll of the event
 * stream.
 *
 * <p>Threads ({@code ThreadStore}) group questions: a follow-up is rewritten into a standalone question
 * from the thread's earlier turns ({@code FollowUps}) before its strategy runs.
 *
 * <p>Owns {@code question}, {@code trace_event} and {@code question_thread}.
 */
@io.lorekeeper.platform.OwnsTables({"question", "trace_event", "question_thread"})
@org.springframework.modulith.ApplicationModule(
        allowedDependencies = {"document", "llm", "platform", "strategy", "retrieval", "security", "text"})
package io.lorekeeper.question;
