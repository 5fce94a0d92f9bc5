package io.lorekeeper.comorag;

import jakarta.validation.constraints.NotBlank;

/** A summary written for the semantic or the episodic layer. */
record SummaryReply(@NotBlank String summary) {

    /** A summary written as prose rather than JSON is still a summary. */
    static SummaryReply fromPlainText(String text) {
        return new SummaryReply(text.strip());
    }
}
