package io.lorekeeper.eval;

enum EvaluationStatus {
    QUEUED,
    RUNNING,
    DONE,
    FAILED;

    boolean isFinished() {
        return this == DONE || this == FAILED;
    }
}
