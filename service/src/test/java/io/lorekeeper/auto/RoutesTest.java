package io.lorekeeper.auto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** auto's rules over every kind of situation, with the strategies present or absent, memories ready or not. */
class RoutesTest {

    /** What this branch deploys; memcot, comorag and cosmir arrive from other branches. */
    private static final Set<String> HERE = Set.of("extractive", "rag", "gam", "mindgraph");

    private static final Set<String> ALL =
            Set.of("extractive", "rag", "gam", "mindgraph", "memcot", "comorag", "cosmir");

    private static Routes.Fitness deployed(Set<String> names) {
        return c -> names.contains(c.strategy()) ? Optional.empty() : Optional.of("not deployed here");
    }

    private static Situation situation(boolean conversation, long tokens, String question, boolean multipleChoice) {
        return new Situation(
                true,
                conversation,
                tokens,
                (int) (tokens / 250),
                QuestionForm.of(question, multipleChoice),
                200,
                2_000_000);
    }

    @Test
    void withoutAnLlmItAnswersExtractively() {
        Situation s = new Situation(
                false,
                true,
                20_000,
                80,
                QuestionForm.of("When did Caroline go to the support group?", false),
                200,
                2_000_000);

        Choice choice = DeclaredToday.ROUTES.choose(s, deployed(ALL));

        assertThat(choice.candidate().strategy()).isEqualTo("extractive");
        assertThat(choice.rule()).isEqualTo("no-llm");
    }

    @Test
    void aSmallBudgetGetsOneCall() {
        Situation s = new Situation(
                true,
                true,
                20_000,
                80,
                QuestionForm.of("When did Caroline go to the support group?", false),
                2,
                2_000_000);

        assertThat(DeclaredToday.ROUTES.choose(s, deployed(ALL)).candidate().strategy())
                .isEqualTo("rag");
        Situation fewTokens =
                new Situation(true, false, 300_000, 1200, QuestionForm.of("Why does Pip change?", false), 200, 10_000);
        assertThat(DeclaredToday.ROUTES.choose(fewTokens, deployed(ALL)).rule()).isEqualTo("small-budget");
    }

    @Test
    void aTextOneRetrievalCoversGoesToRag() {
        Situation s = new Situation(
                true,
                false,
                1_500,
                6,
                QuestionForm.of("Why did the crew launch the boat, and when?", false),
                200,
                2_000_000);

        Choice choice = DeclaredToday.ROUTES.choose(s, deployed(ALL));

        assertThat(choice.candidate().strategy()).isEqualTo("rag");
        assertThat(choice.rule()).isEqualTo("whole-text-fits");
    }

    @Test
    void temporalAndMultiHopQuestionsOnConversationsGoToGamThenMemcot() {
        Situation temporal = situation(true, 20_000, "When did Caroline go to the LGBTQ support group?", false);
        Situation multiHop = situation(true, 20_000, "What do Melanie and Caroline both like to paint?", false);

        assertThat(DeclaredToday.ROUTES
                        .choose(temporal, deployed(ALL))
                        .candidate()
                        .strategy())
                .isEqualTo("gam");
        assertThat(DeclaredToday.ROUTES.choose(multiHop, deployed(ALL)).rule()).isEqualTo("conversation-reasoning");

        Routes.Fitness noMemos = c -> c.strategy().equals("gam")
                ? Optional.of("needs the 'memos' memory, which is SKIPPED")
                : Optional.empty();
        Choice withoutMemos = DeclaredToday.ROUTES.choose(temporal, noMemos);
        assertThat(withoutMemos.candidate().strategy()).isEqualTo("memcot");
        assertThat(withoutMemos.considered())
                .first()
                .isEqualTo(Map.of("strategy", "gam", "verdict", "needs the 'memos' memory, which is SKIPPED"));

        Routes.Fitness onlyHere =
                c -> HERE.contains(c.strategy()) && !c.strategy().equals("gam") ? Optional.empty() : Optional.of("no");
        assertThat(DeclaredToday.ROUTES.choose(temporal, onlyHere).candidate().strategy())
                .as("falls back to rag")
                .isEqualTo("rag");
    }

    @Test
    void aSingleFactQuestionGoesToRag() {
        Choice choice = DeclaredToday.ROUTES.choose(
                situation(true, 20_000, "what is the name of the puppy?", false), deployed(ALL));

        assertThat(choice.candidate().strategy()).isEqualTo("rag");
        assertThat(choice.rule()).isEqualTo("single-fact");
    }

    @Test
    void wholeStoryQuestionsOnLongTextsPreferComoragThenTheSharedGraphThenGam() {
        Situation mc = situation(false, 250_000, "Who is the benefactor?", true);
        Situation global = situation(false, 250_000, "How does Pip's view of Joe change over the novel?", false);

        assertThat(DeclaredToday.ROUTES.choose(mc, deployed(ALL)).candidate().strategy())
                .isEqualTo("comorag");
        Choice here = DeclaredToday.ROUTES.choose(global, deployed(HERE));
        assertThat(here.candidate()).isEqualTo(new Candidate("mindgraph", Map.of("graph", "shared")));
        assertThat(here.considered()).extracting(m -> m.get("verdict")).containsExactly("not deployed here", "chosen");

        Routes.Fitness noGraph = c -> c.strategy().equals("mindgraph")
                ? Optional.of("needs the 'graph' memory, which is SKIPPED")
                : deployed(HERE).unfit(c);
        assertThat(DeclaredToday.ROUTES.choose(global, noGraph).candidate().strategy())
                .isEqualTo("gam");
    }

    @Test
    void wholeStoryQuestionsOnShorterTextsBuildAQuestionAwareGraph() {
        Choice choice = DeclaredToday.ROUTES.choose(
                situation(false, 30_000, "What is the main theme of the report?", false), deployed(HERE));

        assertThat(choice.candidate()).isEqualTo(Candidate.of("mindgraph"));
        assertThat(choice.rule()).isEqualTo("text-whole-story");
    }

    @Test
    void whenNothingElseCanRunExtractiveAlwaysCan() {
        Choice choice = DeclaredToday.ROUTES.choose(
                situation(true, 20_000, "When did it happen?", false), c -> Optional.of("unavailable"));

        assertThat(choice.candidate().strategy()).isEqualTo("extractive");
        assertThat(choice.considered())
                .extracting(m -> m.get("strategy"))
                .containsExactly("gam", "memcot", "rag", "extractive");
    }

    @Test
    void questionFormsAreReadFromTheWording() {
        assertThat(QuestionForm.of("When did Caroline go to the support group?", false)
                        .temporal())
                .isTrue();
        assertThat(QuestionForm.of("What did Caroline paint?", false))
                .isEqualTo(new QuestionForm(false, false, false, false));
        assertThat(QuestionForm.of("What did Caroline and Melanie paint?", false)
                        .multiHop())
                .as("two names")
                .isTrue();
        assertThat(QuestionForm.of("Why did Pip leave the forge?", false).multiHop())
                .isTrue();
        assertThat(QuestionForm.of("What is the main theme of the novel?", false)
                        .global())
                .isTrue();
        assertThat(QuestionForm.of("Which ship?", true).multipleChoice()).isTrue();
        assertThat(List.of(QuestionForm.of("How long ago did she move?", false).temporal()))
                .containsExactly(true);
    }
}
