package io.lorekeeper.document;

import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.media.Schema;

/** Request bodies of the document API. */
final class DocumentRequests {

    private DocumentRequests() {
    }

    @Schema(description = "A document: either `text` (a book, report, transcript) or `sessions` (a conversation history)")
    record CreateDocument(
            @Schema(description = "Title; defaults to the first line of the text") String title,
            @Schema(description = "Full text (UTF-8); line endings are normalised to \\n") String text,
            @Schema(description = "Conversation sessions, in order; use instead of `text`") List<Session> sessions,
            @Schema(description = "Free-form metadata stored with the document") Map<String, Object> metadata,
            @Schema(description = "Index profile: `standard` (default) or `retrieval-only`") String profile) {
    }

    record Session(
            @Schema(description = "Session id; defaults to its 1-based position") String id,
            @Schema(description = "When the session took place, as free text (e.g. \"1:56 pm on 8 May, 2023\")") String dateTime,
            List<Turn> turns) {
    }

    record Turn(
            @Schema(description = "Turn id, unique in the document; defaults to D<session>:<turn>") String id,
            String speaker,
            String text) {
    }

    @Schema(description = "Sessions to add after the last one of a conversation document")
    record AppendSessions(
            @Schema(description = "New sessions, in order; numbering and default ids continue after the stored sessions") List<Session> sessions) {
    }

    record Reindex(@Schema(description = "Stages to rebuild (with every later stage); empty resumes unfinished stages") List<String> stages) {
    }
}
