package io.lorekeeper.document;

import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.media.Schema.RequiredMode;

/** Request bodies of the document API. */
public final class DocumentRequests {

    private DocumentRequests() {}

    /**
     * What the server binds a new document into. Clients see its two shapes instead
     * ({@link CreateTextDocument} or {@link CreateConversation}, a {@code oneOf}): binding both into
     * one record lets the intake name the field at fault when a body mixes them or lacks both.
     */
    @Schema(hidden = true)
    public record CreateDocument(
            String title, String text, List<Session> sessions, Map<String, Object> metadata, String profile) {}

    @Schema(description = "A text document: a book, a report, a transcript")
    public record CreateTextDocument(
            @Schema(description = "Title; defaults to the first line of the text", maxLength = 500)
            String title,

            @Schema(
                    description = "Full text (UTF-8, at most 20 MB by default); line endings are normalised to \\n. "
                            + "Must not be blank",
                    requiredMode = RequiredMode.REQUIRED,
                    minLength = 1)
            String text,

            @Schema(description = "Free-form metadata stored with the document (a JSON object)")
            Map<String, Object> metadata,

            @Schema(
                    description = "Index profile: which memories ingestion builds",
                    allowableValues = {IndexProfiles.STANDARD, IndexProfiles.RETRIEVAL_ONLY, IndexProfiles.DEEP},
                    defaultValue = IndexProfiles.STANDARD)
            String profile) {}

    @Schema(description = "A conversation history: sessions of turns, rendered into one canonical text")
    public record CreateConversation(
            @Schema(description = "Title; defaults to the first line of the rendered text", maxLength = 500)
            String title,

            @ArraySchema(
                    arraySchema =
                            @Schema(
                                    description = "Conversation sessions, in order (at most 5000 by default)",
                                    requiredMode = RequiredMode.REQUIRED),
                    minItems = 1)
            List<Session> sessions,

            @Schema(description = "Free-form metadata stored with the document (a JSON object)")
            Map<String, Object> metadata,

            @Schema(
                    description = "Index profile: which memories ingestion builds",
                    allowableValues = {IndexProfiles.STANDARD, IndexProfiles.RETRIEVAL_ONLY, IndexProfiles.DEEP},
                    defaultValue = IndexProfiles.STANDARD)
            String profile) {}

    @Schema(description = "One conversation session")
    public record Session(
            @Schema(description = "Session id; defaults to its 1-based position")
            String id,

            @Schema(description = "When the session took place, as free text (e.g. \"1:56 pm on 8 May, 2023\")")
            String dateTime,

            @ArraySchema(
                    arraySchema =
                            @Schema(
                                    description = "The turns, in order (at most 5000 by default)",
                                    requiredMode = RequiredMode.REQUIRED),
                    minItems = 1)
            List<Turn> turns) {}

    @Schema(description = "One turn of a session")
    public record Turn(
            @Schema(description = "Turn id, unique in the document; defaults to D<session>:<turn>")
            String id,

            @Schema(description = "Who spoke", requiredMode = RequiredMode.REQUIRED, minLength = 1)
            String speaker,

            @Schema(description = "What was said", requiredMode = RequiredMode.REQUIRED, minLength = 1)
            String text) {}

    @Schema(description = "Sessions to add after the last one of a conversation document")
    public record AppendSessions(
            @ArraySchema(
                    arraySchema =
                            @Schema(
                                    description = "New sessions, in order; numbering and default ids continue after "
                                            + "the stored sessions",
                                    requiredMode = RequiredMode.REQUIRED),
                    minItems = 1)
            List<Session> sessions) {}

    @Schema(
            description =
                    "What to rebuild; an absent body or empty list resumes unfinished stages and retries failed memories")
    public record Reindex(
            @Schema(
                    description =
                            "Stages to rebuild (a retrieval stage with every later stage; an enrichment stage alone)")
            List<String> stages) {}
}
