package io.lorekeeper.auto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/**
 * auto's thresholds at their boundaries (budget, whole-text chunks, long text), the reasons each rule
 * gives, and the fallbacks added once, without a model or a database.
 */
class RouteBoundariesTest {

    private static final Routes.Fitness ANY = c -> Optional.empty();

    private static Situation situation(long tokens, int chunks, String question, int calls, long budgetTokens) {
        return new Situation(true, false, tokens, chunks, QuestionForm.of(question, false), calls, budgetTokens);
    }

    private static Choice choose(Situation s) {
        return DeclaredToday.ROUTES.choose(s, ANY);
    }

    @Test
    void theBudgetIsSmallBelowThreeCallsOrTwentyThousandTokensNotAtThem() {
        String q = "What did Pip eat?";
        assertThat(choose(situation(100_000, 400, q, 2, 2_000_000)).rule()).isEqualTo("small-budget");
        assertThat(choose(situation(100_000, 400, q, 3, 2_000_000)).rule()).isEqualTo("single-fact");
        assertThat(choose(situation(100_000, 400, q, 200, 19_999)).rule()).isEqualTo("small-budget");
        Choice atTokens = choose(situation(100_000, 400, q, 200, 20_000));
        assertThat(atTokens.rule()).isEqualTo("single-fact");
        assertThat(atTokens.reasons()).containsExactly("the question asks for one fact");
        assertThat(choose(situation(100_000, 400, q, 2, 10)).reasons())
                .containsExactly(
                        "the budget allows 2 calls and 10 tokens: room for one answer call, not a research loop");
    }

    @Test
    void aTextOfEightChunksFitsOneRetrievalAndOfNineDoesNot() {
        String q = "What are the main themes of the story?";
        Choice eight = choose(situation(2_000, 8, q, 200, 2_000_000));
        assertThat(eight.rule()).isEqualTo("whole-text-fits");
        assertThat(eight.reasons()).containsExactly("the documents are 8 chunks: one retrieval shows all of them");
        assertThat(eight.candidate().strategy()).isEqualTo("rag");
        assertThat(choose(situation(2_000, 9, q, 200, 2_000_000)).rule()).isEqualTo("text-whole-story");
    }

    @Test
    void aTextIsLongPastSixtyFourThousandTokensNotAtThem() {
        String q = "What is the main theme?";
        Choice at = choose(situation(64_000, 300, q, 200, 2_000_000));
        assertThat(at.rule()).isEqualTo("text-whole-story");
        assertThat(at.reasons())
                .containsExactly("the documents are 64000 tokens", "the question is about the text as a whole");
        assertThat(at.candidate().strategy()).isEqualTo("mindgraph");
        Choice past = choose(situation(64_001, 300, q, 200, 2_000_000));
        assertThat(past.rule()).isEqualTo("long-text-whole-story");
        assertThat(past.reasons())
                .containsExactly(
                        "the documents are 64001 tokens, over 64000", "the question is about the text as a whole");
        assertThat(past.candidate()).isEqualTo(Candidate.of("comorag"));
    }

    @Test
    void eachRuleSaysWhyItApplied() {
        Situation choice = new Situation(
                true, false, 300_000, 1_200, QuestionForm.of("Which ship did Pip take?", true), 200, 2_000_000);
        assertThat(choose(choice).reasons()).contains("the question is multiple choice");

        Situation temporal = new Situation(
                true, true, 20_000, 80, QuestionForm.of("When did Caroline move?", false), 200, 2_000_000);
        assertThat(choose(temporal).reasons())
                .containsExactly("the documents are conversation histories", "the question asks about time");
        Situation joins = new Situation(
                true, true, 20_000, 80, QuestionForm.of("What do Caroline and Melanie share?", false), 200, 2_000_000);
        assertThat(choose(joins).reasons())
                .containsExactly("the documents are conversation histories", "the question joins several facts");

        Situation down = new Situation(
                false, false, 1_000, 4, QuestionForm.of("What?", false), 200, 2_000_000, "connection refused");
        assertThat(choose(down).reasons()).containsExactly("the model endpoint does not answer (connection refused)");
        Situation none = new Situation(false, false, 1_000, 4, QuestionForm.of("What?", false), 200, 2_000_000);
        assertThat(choose(none).reasons()).containsExactly("no LLM is configured");
    }

    @Test
    void aQuestionJoiningFactsOnAPlainTextGoesToTheResearchLoops() {
        Choice choice = choose(situation(30_000, 120, "Why did Pip leave the forge?", 200, 2_000_000));
        assertThat(choice.rule()).isEqualTo("multi-hop");
        assertThat(choice.reasons()).containsExactly("the question joins several facts");
        assertThat(choice.candidate().strategy()).isEqualTo("gam");
    }

    @Test
    void theFallbacksAreAddedOnlyWhenTheRuleDoesNotNameThemAlready() {
        Choice choice = DeclaredToday.ROUTES.choose(
                situation(30_000, 120, "What did Pip eat?", 200, 2_000_000),
                c -> c.strategy().equals("rag") ? Optional.of("no embeddings") : Optional.empty());
        assertThat(choice.considered())
                .containsExactly(
                        Map.of("strategy", "rag", "verdict", "no embeddings"),
                        Map.of("strategy", "extractive", "verdict", "chosen"));
        assertThat(choice.candidate().strategy()).isEqualTo("extractive");
    }

    @Test
    void extractiveIsNeverAskedWhetherItFits() {
        Choice choice = DeclaredToday.ROUTES.choose(
                new Situation(false, false, 1_000, 4, QuestionForm.of("What?", false), 200, 2_000_000),
                c -> Optional.of("nothing fits"));
        assertThat(choice.candidate().strategy()).isEqualTo("extractive");
        assertThat(choice.considered()).containsExactly(Map.of("strategy", "extractive", "verdict", "chosen"));
    }

    @Test
    void aMissingQuestionHasNoForm() {
        assertThat(QuestionForm.of(null, false)).isEqualTo(new QuestionForm(false, false, false, false));
        assertThat(List.of(
                        QuestionForm.of("Did Pip, Joe and Biddy stay?", false).multiHop()))
                .containsExactly(true);
    }
}
