package io.lorekeeper.document.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

import io.lorekeeper.document.DocumentRequests.Session;
import io.lorekeeper.document.DocumentRequests.Turn;
import io.lorekeeper.document.intake.CanonicalText.RenderedTurn;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.text.Span;

/** Rendering sessions after a stored conversation: stored offsets stay, numbering and ids continue, collisions are refused. */
class ConversationAppendTest {

    private static final DocumentLimits LIMITS =
            new DocumentLimits(DataSize.ofMegabytes(20), 500, 3, 5000, DataSize.ofKilobytes(16));

    private static final List<Session> FIRST = List.of(new Session(
            null,
            "1:56 pm on 8 May, 2023",
            List.of(
                    new Turn(null, "Caroline", "I went to the support group."),
                    new Turn(null, "Melanie", "How was it?"))));
    private static final List<Session> SECOND = List.of(
            new Session(null, "7:55 pm on 9 June, 2023", List.of(new Turn(null, "Caroline", "I adopted a dog."))));

    @Test
    void appendingGivesTheSameTextAndSpansAsRenderingEverythingAtOnce() {
        CanonicalText before = ConversationRenderer.render(FIRST, LIMITS);

        CanonicalText after = ConversationRenderer.append(before, SECOND, LIMITS);

        CanonicalText atOnce = ConversationRenderer.render(List.of(FIRST.getFirst(), SECOND.getFirst()), LIMITS);
        assertThat(after).isEqualTo(atOnce);
        assertThat(after.text())
                .startsWith(before.text())
                .endsWith("\n\n[Session 2, 7:55 pm on 9 June, 2023]\nCaroline: I adopted a dog.");
        assertThat(after.sessions()).startsWith(before.sessions().toArray(CanonicalText.RenderedSession[]::new));
        assertThat(after.turns()).startsWith(before.turns().toArray(RenderedTurn[]::new));
        RenderedTurn added = after.turns().getLast();
        assertThat(added.id()).isEqualTo("D2:1");
        assertThat(added.sessionIndex()).isEqualTo(1);
        assertThat(added.span().of(after.text())).isEqualTo("Caroline: I adopted a dog.");
        assertThat(after.sessions().getLast().span())
                .isEqualTo(new Span(before.text().length() + 2, after.text().length()));
    }

    @Test
    void idsAlreadyInTheConversationAreRefusedNamingTheFieldOfTheRequest() {
        CanonicalText before = ConversationRenderer.render(FIRST, LIMITS);

        ApiProblem turn = catchThrowableOfType(
                ApiProblem.class,
                () -> ConversationRenderer.append(
                        before,
                        List.of(new Session(null, null, List.of(new Turn("x", "A", "a"), new Turn("D1:2", "B", "b")))),
                        LIMITS));
        ApiProblem session = catchThrowableOfType(
                ApiProblem.class,
                () -> ConversationRenderer.append(
                        before, List.of(new Session("1", null, List.of(new Turn(null, "A", "a")))), LIMITS));

        assertThat(turn.field()).isEqualTo("sessions[0].turns[1].id");
        assertThat(turn.getMessage()).contains("D1:2").contains("already in the conversation");
        assertThat(session.field()).isEqualTo("sessions[0].id");
    }

    @Test
    void theSessionLimitCountsStoredSessions() {
        CanonicalText before = ConversationRenderer.render(List.of(FIRST.getFirst(), SECOND.getFirst()), LIMITS);

        ApiProblem problem = catchThrowableOfType(
                ApiProblem.class,
                () -> ConversationRenderer.append(before, List.of(SECOND.getFirst(), SECOND.getFirst()), LIMITS));

        assertThat(problem.field()).isEqualTo("sessions");
        assertThat(problem.getMessage()).contains("3").contains("2 already stored");
    }
}
