package io.lorekeeper.strategy;

import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * Evidence for an answer: {@code quote} is exactly the canonical text in {@code [start, end)} of
 * the document (UTF-16 code units), and {@code turnId} names the conversation turn it lies in;
 * {@code page} and {@code section} the page and heading of an uploaded file it starts in.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(
        description =
                "Evidence: `quote` is exactly the canonical text of the document in [start, end), counted in UTF-16 code units")
public record Citation(
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) UUID documentId,

        @Schema(description = "First UTF-16 code unit of the quote", minimum = "0")
        int start,

        @Schema(description = "End of the quote, exclusive", minimum = "0")
        int end,

        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String quote,

        @Schema(description = "The conversation turn the quote lies in (conversations only)")
        String turnId,

        @Schema(description = "The page the quote starts on (files with pages: PDF)", minimum = "1")
        Integer page,

        @Schema(description = "The heading of the section the quote starts in (files with headings)")
        String section) {

    public Citation(UUID documentId, int start, int end, String quote, String turnId) {
        this(documentId, start, end, quote, turnId, null, null);
    }

    public static Citation of(UUID documentId, int start, int end, String quote) {
        return new Citation(documentId, start, end, quote, null);
    }

    public Citation withTurnId(String id) {
        return new Citation(documentId, start, end, quote, id, page, section);
    }
}
