package io.lorekeeper.reasoning.comorag;

import jakarta.validation.constraints.NotBlank;

/** A summary written for the semantic or the episodic layer. */
record SummaryReply(@NotBlank String summary) {
}
