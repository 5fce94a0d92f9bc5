package io.lorekeeper.document.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

import io.lorekeeper.document.DocumentRequests.Session;
import io.lorekeeper.document.DocumentRequests.Turn;
import io.lorekeeper.document.intake.CanonicalText.RenderedSession;
import io.lorekeeper.document.intake.CanonicalText.RenderedTurn;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.text.Span;

class ConversationRendererTest {

    private static final DocumentLimits LIMITS = limits(5000, 5000);

    private static DocumentLimits limits(int maxSessions, int maxTurnsPerSession) {
        return new DocumentLimits(
                DataSize.ofMegabytes(20), 500, maxSessions, maxTurnsPerSession, DataSize.ofKilobytes(16));
    }

    private static Turn turn(String speaker, String text) {
        return new Turn(null, speaker, text);
    }

    private static Turn turn(String id, String speaker, String text) {
        return new Turn(id, speaker, text);
    }

    private static Session session(String dateTime, Turn... turns) {
        return new Session(null, dateTime, Arrays.asList(turns));
    }

    private static Session sessionWithId(String id, Turn... turns) {
        return new Session(id, null, Arrays.asList(turns));
    }

    private static CanonicalText render(Session... sessions) {
        return ConversationRenderer.render(Arrays.asList(sessions), LIMITS);
    }

    private static ApiProblem problem(List<Session> sessions, DocumentLimits limits) {
        ApiProblem problem =
                catchThrowableOfType(ApiProblem.class, () -> ConversationRenderer.render(sessions, limits));
        assertThat(problem).as("rendering is refused").isNotNull();
        assertThat(problem.kind()).isEqualTo(ApiProblem.Kind.INVALID);
        assertThat(problem.type()).isEqualTo("invalid-request");
        return problem;
    }

    private static ApiProblem problem(Session... sessions) {
        return problem(Arrays.asList(sessions), LIMITS);
    }

    private static CanonicalText twoSessions() {
        return render(
                session(
                        "1:56 pm on 8 May, 2023",
                        turn("Caroline", "Hey Mel! Good to see you!"),
                        turn("Melanie", "Hi Caroline, how are you?")),
                session(null, turn("Caroline", "I went to the support group yesterday.")));
    }

    @Test
    void rendersHeaderAndOneLinePerTurn() {
        assertThat(twoSessions().text()).isEqualTo("""
                [Session 1, 1:56 pm on 8 May, 2023]
                Caroline: Hey Mel! Good to see you!
                Melanie: Hi Caroline, how are you?

                [Session 2]
                Caroline: I went to the support group yesterday.""");
    }

    @Test
    void turnSpansCoverSpeakerAndTextExactly() {
        CanonicalText canonical = twoSessions();

        assertThat(canonical.turns())
                .extracting(RenderedTurn::span)
                .containsExactly(new Span(36, 71), new Span(72, 106), new Span(120, 168));
        assertThat(canonical.turns())
                .extracting(t -> t.span().of(canonical.text()))
                .containsExactly(
                        "Caroline: Hey Mel! Good to see you!",
                        "Melanie: Hi Caroline, how are you?",
                        "Caroline: I went to the support group yesterday.");
    }

    @Test
    void turnsRecordTheirSessionPositionAndSpeaker() {
        assertThat(twoSessions().turns())
                .containsExactly(
                        new RenderedTurn("D1:1", 0, "1", 0, "Caroline", new Span(36, 71)),
                        new RenderedTurn("D1:2", 0, "1", 1, "Melanie", new Span(72, 106)),
                        new RenderedTurn("D2:1", 1, "2", 0, "Caroline", new Span(120, 168)));
    }

    @Test
    void sessionSpansRunFromHeaderToLastTurn() {
        CanonicalText canonical = twoSessions();

        assertThat(canonical.sessions())
                .containsExactly(
                        new RenderedSession(0, "1", "1:56 pm on 8 May, 2023", new Span(0, 106)),
                        new RenderedSession(1, "2", null, new Span(108, 168)));
        assertThat(canonical.sessions().get(1).span().of(canonical.text()))
                .isEqualTo("[Session 2]\nCaroline: I went to the support group yesterday.");
    }

    @Test
    void explicitIdsAreKeptAndStripped() {
        CanonicalText canonical = render(
                sessionWithId(" s-a ", turn(" t1 ", "A", "One."), turn("B", "Two.")),
                sessionWithId("  ", turn("C", "Three.")));

        assertThat(canonical.sessions()).extracting(RenderedSession::id).containsExactly("s-a", "2");
        assertThat(canonical.turns()).extracting(RenderedTurn::id).containsExactly("t1", "D1:2", "D2:1");
        assertThat(canonical.turns()).extracting(RenderedTurn::sessionId).containsExactly("s-a", "s-a", "2");
    }

    @Test
    void blankDateTimeIsLikeNoDateTime() {
        CanonicalText canonical = render(session("   ", turn("A", "Hi.")));

        assertThat(canonical.text()).isEqualTo("[Session 1]\nA: Hi.");
        assertThat(canonical.sessions().getFirst().dateTime()).isNull();
    }

    @Test
    void lineBreaksInTurnTextAreNormalisedAndTextIsStripped() {
        CanonicalText canonical = render(session(null, turn("A", "  line one\r\nline two\rline three\u0000  ")));

        assertThat(canonical.text()).isEqualTo("[Session 1]\nA: line one\nline two\nline three");
        assertThat(canonical.turns().getFirst().span().of(canonical.text()))
                .isEqualTo("A: line one\nline two\nline three");
    }

    @Test
    void speakerAndDateTimeAreFlattenedToOneLine() {
        CanonicalText canonical = render(session(" 8 May,\r\n2023 ", turn(" Mary\nAnn ", "Hello.")));

        assertThat(canonical.text()).isEqualTo("[Session 1, 8 May, 2023]\nMary Ann: Hello.");
        assertThat(canonical.turns().getFirst().speaker()).isEqualTo("Mary Ann");
        assertThat(canonical.sessions().getFirst().dateTime()).isEqualTo("8 May, 2023");
    }

    @Test
    void blankSpeakerIsRefusedNamingTheField() {
        ApiProblem problem = problem(session(null, turn("A", "Fine."), turn("  ", "Who said this?")));

        assertThat(problem.field()).isEqualTo("sessions[0].turns[1].speaker");
    }

    @Test
    void missingSpeakerIsRefusedNamingTheField() {
        ApiProblem problem = problem(session(null, turn("A", "Fine.")), session(null, turn(null, "Who said this?")));

        assertThat(problem.field()).isEqualTo("sessions[1].turns[0].speaker");
    }

    @Test
    void blankTextIsRefusedNamingTheField() {
        ApiProblem problem =
                problem(session(null, turn("A", "Fine.")), session(null, turn("B", "ok"), turn("C", " \n ")));

        assertThat(problem.field()).isEqualTo("sessions[1].turns[1].text");
    }

    @Test
    void duplicateTurnIdIsRefusedNamingTheSecondUse() {
        ApiProblem problem = problem(
                session(null, turn("x", "A", "One.")), session(null, turn("B", "Two."), turn(" x ", "C", "Three.")));

        assertThat(problem.field()).isEqualTo("sessions[1].turns[1].id");
        assertThat(problem.getMessage()).contains("'x'");
    }

    @Test
    void explicitTurnIdCollidingWithADefaultIdIsRefused() {
        ApiProblem problem = problem(session(null, turn("D1:2", "A", "One."), turn("B", "Two.")));

        assertThat(problem.field()).isEqualTo("sessions[0].turns[1].id");
    }

    @Test
    void duplicateSessionIdIsRefusedNamingTheSecondUse() {
        ApiProblem problem = problem(sessionWithId("day", turn("A", "One.")), sessionWithId("day", turn("B", "Two.")));

        assertThat(problem.field()).isEqualTo("sessions[1].id");
    }

    @Test
    void tooManySessionsIsRefused() {
        List<Session> sessions =
                List.of(session(null, turn("A", "1.")), session(null, turn("A", "2.")), session(null, turn("A", "3.")));

        ApiProblem problem = problem(sessions, limits(2, 10));

        assertThat(problem.field()).isEqualTo("sessions");
        assertThat(problem.getMessage()).contains("2").contains("3");
    }

    @Test
    void sessionLimitIsInclusive() {
        CanonicalText canonical = ConversationRenderer.render(
                List.of(session(null, turn("A", "1.")), session(null, turn("A", "2."))), limits(2, 10));

        assertThat(canonical.sessions()).hasSize(2);
    }

    @Test
    void tooManyTurnsInASessionIsRefused() {
        List<Session> sessions =
                List.of(session(null, turn("A", "1.")), session(null, turn("A", "2."), turn("B", "3.")));

        ApiProblem problem = problem(sessions, limits(10, 1));

        assertThat(problem.field()).isEqualTo("sessions[1].turns");
    }

    @Test
    void conversationWithoutAnyTurnIsRefused() {
        assertThat(problem(session("today"), new Session(null, null, null)).field())
                .isEqualTo("sessions");
        assertThat(problem(List.of(), LIMITS).field()).isEqualTo("sessions");
    }

    @Test
    void nullSessionAndNullTurnAreRefused() {
        List<Session> withNullSession = new ArrayList<>();
        withNullSession.add(session(null, turn("A", "One.")));
        withNullSession.add(null);

        assertThat(problem(withNullSession, LIMITS).field()).isEqualTo("sessions[1]");
        assertThat(problem(session(null, turn("A", "One."), null)).field()).isEqualTo("sessions[0].turns[1]");
    }

    @Test
    void sessionWithoutTurnsKeepsItsHeaderAndNumbering() {
        CanonicalText canonical = render(session("monday"), session(null, turn("A", "Hi.")));

        assertThat(canonical.text()).isEqualTo("[Session 1, monday]\n\n[Session 2]\nA: Hi.");
        assertThat(canonical.turns()).extracting(RenderedTurn::id).containsExactly("D2:1");
    }
}
