package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.lorekeeper.text.Span;

class ConfidenceFeaturesTest {

    private static final ShortAnswer.Answer DATE =
            new ShortAnswer.Answer("3 June 1865", new Span(10, 21), false, ShortAnswer.Kind.DATE);

    @Test
    void anAnswerFromProseIsMarkedAsSuchBesideItsKindAndType() {
        Map<String, Double> f = Confidence.features(0.8, 0.5, true, AnswerType.TIME, DATE, true);

        assertThat(f).containsEntry("prose", 1.0);
        assertThat(f).containsEntry("kind_date", 1.0);
        assertThat(f).containsEntry("type_time", 1.0);
        assertThat(f).containsEntry("typeMatch", 1.0);
        assertThat(f.get("lead")).isCloseTo(0.3, within(1e-9));
        assertThat(f.get("answerWords")).isCloseTo(Math.log(4), within(1e-9));
    }

    @Test
    void anAnswerFromAConversationIsNotProse() {
        assertThat(Confidence.features(0.8, 0.9, false, AnswerType.TIME, DATE, false))
                .containsEntry("prose", 0.0)
                .containsEntry("lead", 0.0)
                .containsEntry("typeMatch", 0.0);
    }

    @Test
    void aFeatureTheModelDoesNotNameWeighsNothing() {
        Confidence.Model model = new Confidence.Model(0.0, Map.of("prose", 2.0));

        assertThat(model.probability(Map.of("kind_choice", 1.0))).isCloseTo(0.5, within(1e-9));
        assertThat(model.probability(Map.of("prose", 1.0))).isCloseTo(1 / (1 + Math.exp(-2)), within(1e-9));
    }

    @Test
    void theRankersLeadAndVotesForTheChosenPieceAreFeaturesToo() {
        Candidate c = new Candidate(java.util.UUID.randomUUID(), new Span(0, 30), "x", 0, 0, 1.0);
        SpanRanker.Piece chosen = new SpanRanker.Piece(c, DATE, "date", Map.of("votes", Math.log(2)), 2.5);
        SpanRanker.Piece sameText = new SpanRanker.Piece(c, DATE, "date", Map.of(), 2.4);
        ShortAnswer.Answer other = new ShortAnswer.Answer("June", new Span(12, 16), false, ShortAnswer.Kind.PHRASE);
        SpanRanker.Piece runnerUp = new SpanRanker.Piece(c, other, "phrase", Map.of(), 1.0);
        Map<String, Double> f = new java.util.HashMap<>();

        Confidence.addPieces(f, java.util.List.of(chosen, sameText, runnerUp), chosen);

        assertThat(f.get("pieceLead")).isCloseTo(1.5, within(1e-9)); // the same text offered twice is no rival
        assertThat(f.get("pieceVotes")).isCloseTo(Math.log(2), within(1e-9));
        Map<String, Double> none = new java.util.HashMap<>();
        Confidence.addPieces(none, java.util.List.of(), null);
        assertThat(none).isEmpty();
    }
}
