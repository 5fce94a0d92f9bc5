package io.lorekeeper.document.intake;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.lorekeeper.document.DocumentRequests.Session;
import io.lorekeeper.document.DocumentRequests.Turn;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TextNormalizer;

/**
 * Renders conversation sessions into canonical text, one header line per session and one
 * {@code speaker: text} line per turn:
 *
 * <pre>
 * [Session 3, 7:55 pm on 9 June, 2023]
 * Caroline: I went to the support group yesterday.
 * </pre>
 *
 * and records where every session and turn landed. Validates as it goes, naming the field.
 */
public final class ConversationRenderer {

    private ConversationRenderer() {}

    public static CanonicalText render(List<Session> sessions, DocumentLimits limits) {
        CanonicalText rendered = append(CanonicalText.plain(""), sessions, limits);
        if (rendered.turns().isEmpty()) {
            throw ApiProblem.invalid("sessions", "a conversation needs at least one turn");
        }
        return rendered;
    }

    /**
     * The conversation {@code before} with {@code sessions} rendered after it. Everything already
     * there keeps its offsets; session numbers, default session ids and default turn ids continue
     * where {@code before} stopped, so appending sessions one call at a time yields the same text
     * as sending them all at once. Field paths in problems index into {@code sessions}.
     */
    public static CanonicalText append(CanonicalText before, List<Session> sessions, DocumentLimits limits) {
        int existing = before.sessions().size();
        if (existing + sessions.size() > limits.maxSessions()) {
            throw ApiProblem.invalid(
                    "sessions",
                    "at most " + limits.maxSessions() + " sessions are allowed, got " + (existing + sessions.size())
                            + (existing > 0 ? " with the " + existing + " already stored" : ""));
        }
        StringBuilder text = new StringBuilder(before.text());
        List<CanonicalText.RenderedSession> renderedSessions = new ArrayList<>(before.sessions());
        List<CanonicalText.RenderedTurn> renderedTurns = new ArrayList<>(before.turns());
        Set<String> sessionIds = new HashSet<>();
        before.sessions().forEach(s -> sessionIds.add(s.id()));
        Set<String> turnIds = new HashSet<>();
        before.turns().forEach(t -> turnIds.add(t.id()));
        for (int i = 0; i < sessions.size(); i++) {
            Session session = sessions.get(i);
            int s = existing + i;
            String field = "sessions[" + i + "]";
            if (session == null) {
                throw ApiProblem.invalid(field, "a session must be an object");
            }
            List<Turn> turns = session.turns() == null ? List.of() : session.turns();
            if (turns.size() > limits.maxTurnsPerSession()) {
                throw ApiProblem.invalid(
                        field + ".turns", "at most " + limits.maxTurnsPerSession() + " turns per session are allowed");
            }
            String sessionId =
                    blank(session.id()) ? String.valueOf(s + 1) : session.id().strip();
            if (!sessionIds.add(sessionId)) {
                throw ApiProblem.invalid(
                        field + ".id",
                        "session id '" + sessionId + "' is used twice"
                                + (isStored(
                                                before.sessions().stream().map(CanonicalText.RenderedSession::id),
                                                sessionId)
                                        ? " (it is already in the conversation)"
                                        : ""));
            }
            if (!text.isEmpty()) {
                text.append("\n\n");
            }
            int sessionStart = text.length();
            String dateTime = blank(session.dateTime()) ? null : oneLine(session.dateTime());
            text.append("[Session ")
                    .append(s + 1)
                    .append(dateTime == null ? "" : ", " + dateTime)
                    .append(']');
            for (int t = 0; t < turns.size(); t++) {
                renderedTurns.add(
                        appendTurn(turns.get(t), field + ".turns[" + t + "]", s, sessionId, t, before, turnIds, text));
            }
            renderedSessions.add(
                    new CanonicalText.RenderedSession(s, sessionId, dateTime, new Span(sessionStart, text.length())));
        }
        return new CanonicalText(text.toString(), renderedSessions, renderedTurns);
    }

    /** Checks one turn, gives it its id, and writes it as a line "speaker: text". */
    private static CanonicalText.RenderedTurn appendTurn(
            Turn turn,
            String turnField,
            int s,
            String sessionId,
            int t,
            CanonicalText before,
            Set<String> turnIds,
            StringBuilder text) {
        if (turn == null) {
            throw ApiProblem.invalid(turnField, "a turn must be an object");
        }
        if (blank(turn.speaker())) {
            throw ApiProblem.invalid(turnField + ".speaker", "speaker must not be blank");
        }
        if (blank(turn.text())) {
            throw ApiProblem.invalid(turnField + ".text", "text must not be blank");
        }
        String turnId =
                blank(turn.id()) ? "D" + (s + 1) + ":" + (t + 1) : turn.id().strip();
        if (!turnIds.add(turnId)) {
            throw ApiProblem.invalid(
                    turnField + ".id",
                    "turn id '" + turnId + "' is used twice"
                            + (isStored(before.turns().stream().map(CanonicalText.RenderedTurn::id), turnId)
                                    ? " (it is already in the conversation)"
                                    : ""));
        }
        text.append('\n');
        int turnStart = text.length();
        String speaker = oneLine(turn.speaker());
        text.append(speaker)
                .append(": ")
                .append(TextNormalizer.normalize(turn.text().strip()));
        return new CanonicalText.RenderedTurn(turnId, s, sessionId, t, speaker, new Span(turnStart, text.length()));
    }

    private static boolean isStored(java.util.stream.Stream<String> storedIds, String id) {
        return storedIds.anyMatch(id::equals);
    }

    private static String oneLine(String s) {
        return TextNormalizer.normalize(s).replace('\n', ' ').strip();
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
