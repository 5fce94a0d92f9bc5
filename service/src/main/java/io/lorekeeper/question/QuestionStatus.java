package io.lorekeeper.question;

/** Where a question stands: QUEUED (or waiting for a memory), RUNNING, then DONE or FAILED. */
public enum QuestionStatus {
    QUEUED,
    RUNNING,
    DONE,
    FAILED;

    public boolean isFinished() {
        return this == DONE || this == FAILED;
    }
}
