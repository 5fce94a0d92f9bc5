package io.lorekeeper.question;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeName;

import io.lorekeeper.llm.LlmSession.ReplyIssue;
import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * What a model reply got wrong that was worked around rather than failed on, as the question's
 * model session reports it ({@link io.lorekeeper.llm.LlmSession#reportIssuesTo}). The family lives
 * here, not in the {@code llm} module, because that module may not depend on the strategy SPI that
 * declares {@link TraceEvent}.
 */
public sealed interface LlmEvent extends TraceEvent {

    /** The template whose reply it was ({@code rag/answer}, {@code gam/plan}...). */
    String template();

    String reason();

    /** An invalid item of a reply was left out; the rest was used. */
    @JsonTypeName("llm.dropped")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "LlmDropped")
    record Dropped(
            String template,

            @Schema(description = "Where in the reply, e.g. `pages[2]`")
            String path,

            String reason) implements LlmEvent {}

    /** Neither the reply nor its repair held JSON: the reply's prose was taken as the answer. */
    @JsonTypeName("llm.plain-text")
    @Schema(name = "LlmPlainText")
    record PlainText(String template, String reason) implements LlmEvent {}

    /**
     * A reply was cut at the output limit: asked again with a larger limit, or its complete part
     * kept; the reason names the setting to raise.
     */
    @JsonTypeName("llm.truncated")
    @Schema(name = "LlmTruncated")
    record Truncated(String template, String reason) implements LlmEvent {}

    static LlmEvent of(ReplyIssue issue) {
        return switch (issue.kind()) {
            case "dropped" -> new Dropped(issue.template(), issue.path(), issue.reason());
            case "plain-text" -> new PlainText(issue.template(), issue.reason());
            case "truncated" -> new Truncated(issue.template(), issue.reason());
            default -> throw new IllegalArgumentException("a reply issue of unknown kind: " + issue.kind());
        };
    }
}
