package io.lorekeeper.question;

enum QuestionStatus {
    QUEUED,
    RUNNING,
    DONE,
    FAILED;

    boolean isFinished() {
        return this == DONE || this == FAILED;
    }
}
