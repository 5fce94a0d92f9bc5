package io.lorekeeper.question;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeName;

import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.oas.annotations.media.Schema;

/** What a question asked in a thread made of the thread's earlier turns. */
public sealed interface ThreadEvent extends TraceEvent {

    /**
     * A follow-up read in the light of the earlier turns: {@code standalone} is the question the
     * strategy was asked instead of {@code question}; when {@code skipped} says why, it was asked as it
     * was (no model, no earlier answered turn, a failed rewrite call).
     */
    @JsonTypeName("thread.rewrite")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ThreadRewrite")
    record Rewrite(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String question,

            String standalone,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "earlier turns read")
            int turns,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "tokens of those turns")
            int historyTokens,

            String skipped)
            implements ThreadEvent {}
}
