package io.lorekeeper.cosmir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntUnaryOperator;

import org.junit.jupiter.api.Test;

import io.lorekeeper.llm.ContextLimit;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.strategy.ChunkedReading;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

/** The structured memory's pruning, ids and provenance, the prose fallbacks, and the context-window check, without Spring. */
class CosmirMemoryTest {

    private static final UUID DOC = UUID.randomUUID();

    private static Fact.Evidence at(int start, String source) {
        return new Fact.Evidence(DOC, new Span(start, start + source.length()), source);
    }

    @Test
    void pruningRemovesTheOldestGatheredFactsUntilTheRestFitTheCap() {
        Memory memory = new Memory();
        for (int i = 1; i <= 6; i++) {
            memory.gather("Fact number " + i + " about the marsh country.", (i + 1) / 2, "q" + i, at(i * 10, "q" + i));
        }
        int each = memory.gathered().getFirst().tokens();
        assertThat(each)
                .isEqualTo(TokenCounter.count("[G1] Fact number 1 about the marsh country. (chunk 1) — \"q1\"") + 1);
        int cap = 2 * each + each / 2;

        List<Fact> pruned = memory.pruneGathered(cap);

        assertThat(pruned).extracting(Fact::id).containsExactly("G1", "G2", "G3", "G4");
        assertThat(memory.gathered()).extracting(Fact::id).containsExactly("G5", "G6");
        assertThat(memory.gatheredTokens()).isLessThanOrEqualTo(cap);
        assertThat(memory.holds("G4")).isFalse();
        assertThat(memory.known("G4").text()).isEqualTo("Fact number 4 about the marsh country.");
        assertThat(memory.pruneGathered(cap)).as("already within the cap").isEmpty();
        assertThat(memory.gather("A new fact.", 4, null, null).id())
                .as("ids are never reused")
                .isEqualTo("G7");
    }

    @Test
    void anInferredFactIsGroundedInTheGatheredFactsItRestsOnEvenOncePruned() {
        Memory memory = new Memory();
        Fact convict = memory.gather("Pip fed a convict.", 1, "fed a convict", at(5, "fed a convict"));
        Fact unlocated = memory.gather("Pip had doubts.", 1, "invented words", null);
        Fact returned = memory.gather("Magwitch came back.", 2, "came back", at(90, "came back"));
        Fact first = memory.infer("The convict is Magwitch.", 2, List.of(convict.id(), returned.id()));
        Fact second = memory.infer("Magwitch is the benefactor.", 2, List.of(first.id(), unlocated.id()));
        memory.pruneGathered(0);

        assertThat(memory.gathered()).isEmpty();
        assertThat(memory.groundsOf(second.id())).extracting(Fact::id).containsExactly("G1", "G3", "G2");
        assertThat(memory.groundsOf("G3")).extracting(Fact::id).containsExactly("G3");
        assertThat(memory.groundsOf("I9")).isEmpty();
        assertThat(second.line()).isEqualTo("[I2] Magwitch is the benefactor. (from I1, G2)");
    }

    @Test
    void theRenderedMemoryListsQuestionsGatheredAndInferredFactsWithTheirIds() {
        Memory memory = new Memory();
        memory.setQuestions(List.of("Who is the benefactor?", "Who is the convict?"));
        memory.gather("Pip fed a convict.", 1, "fed", at(0, "fed"));
        memory.infer("Pip is kind.", 1, List.of("G1"));

        assertThat(memory.render()).isEqualTo("""
                Open questions:
                - Who is the benefactor?
                - Who is the convict?

                Gathered facts:
                [G1] Pip fed a convict. (chunk 1) — "fed"

                Inferred facts:
                [I1] Pip is kind. (from G1)""");
        assertThat(new Memory().render()).contains("Open questions:\n(none)").contains("Gathered facts:\n(none yet)");
        CosmirEvent.Snapshot snapshot = memory.snapshot();
        assertThat(snapshot.questions()).isEqualTo(memory.questions());
        assertThat(snapshot.gathered()).extracting(CosmirEvent.FactView::id).containsExactly("G1");
        assertThat(snapshot.inferred()).extracting(CosmirEvent.FactView::basis).containsExactly(List.of("G1"));
        assertThat(snapshot.answer()).isNotNull();
        assertThat(snapshot.counts())
                .isEqualTo(new CosmirEvent.Counts(memory.questions().size(), 1, 1));
        assertThat(snapshot.tokens().total()).isEqualTo(memory.tokens());
    }

    @Test
    void proseRepliesKeepOneItemPerLine() {
        assertThat(PlainText.plan("Here is my plan.\n1. Who paid for Pip?\n2) Who is the convict?\n")
                        .questions())
                .containsExactly("Who paid for Pip?", "Who is the convict?");
        List<Replies.Extracted.NewFact> facts = PlainText.extracted(
                        "- Pip met a convict: \"an escaped convict in the marshes\"\n- Joe is a smith")
                .facts();
        assertThat(facts)
                .extracting(Replies.Extracted.NewFact::quote)
                .containsExactly("an escaped convict in the marshes", null);
        List<Replies.Inferred.Inference> inferred = PlainText.inferred(
                        "- The convict is Magwitch (from G2, G5).\n- A hunch")
                .inferred();
        assertThat(inferred.getFirst().fact()).isEqualTo("The convict is Magwitch");
        assertThat(inferred.getFirst().basis()).containsExactly("G2", "G5");
        assertThat(inferred.get(1).basis()).isEmpty();
        Replies.Managed managed = PlainText.managed("  It was Magwitch.  ");
        assertThat(managed.answer()).isEqualTo("It was Magwitch.");
        assertThat(managed.citedFacts()).isEmpty();
        assertThat(managed.confidence()).isEqualTo(PlainText.CONFIDENCE);
        assertThat(Worker.factId(" [g12] ")).isEqualTo("G12");
    }

    @Test
    void theChunkLengthIsThePapersUnlessTheModelsContextWindowCannotTakeIt() {
        IntUnaryOperator carried = chunk -> 2 * (int) Math.round(0.125 * chunk) + CosmirSettings.QUESTIONS_TOKENS;
        ContextLimit gpt4oMini = new ContextLimit("default", 128_000, 8_192);
        assertThat(ChunkedReading.chunkSize("cosmir", QuestionOptions.none(), carried, gpt4oMini))
                .isEqualTo(new ChunkedReading.ChunkSize(64_000, false));

        ContextLimit local = new ContextLimit("local", 32_768, 8_192);
        ChunkedReading.ChunkSize lowered = ChunkedReading.chunkSize("cosmir", QuestionOptions.none(), carried, local);
        int n = lowered.tokens();
        assertThat(lowered.lowered()).isTrue();
        assertThat(n + carried.applyAsInt(n) + ChunkedReading.PROMPT_ALLOWANCE)
                .as("fits")
                .isLessThanOrEqualTo(24_576);
        assertThat(n + 1 + carried.applyAsInt(n + 1) + ChunkedReading.PROMPT_ALLOWANCE)
                .as("the largest that fits")
                .isGreaterThan(24_576);

        assertThat(ChunkedReading.chunkSize(
                        "cosmir", new QuestionOptions(Map.of("chunkTokens", 10_000)), carried, local))
                .isEqualTo(new ChunkedReading.ChunkSize(10_000, false));
        assertThatThrownBy(() -> ChunkedReading.chunkSize(
                        "cosmir", new QuestionOptions(Map.of("chunkTokens", 64_000)), carried, local))
                .isInstanceOfSatisfying(
                        ApiProblem.class, p -> assertThat(p.field()).isEqualTo("options.chunkTokens"))
                .hasMessageContaining("82720 prompt tokens")
                .hasMessageContaining("at most 24576")
                .hasMessageContaining("context-window 32768")
                .hasMessageContaining("use chunkTokens of at most " + n);
        assertThatThrownBy(() -> ChunkedReading.chunkSize(
                        "cosmir", QuestionOptions.none(), carried, new ContextLimit("tiny", 4_096, 2_048)))
                .isInstanceOfSatisfying(
                        ApiProblem.class, p -> assertThat(p.field()).isEqualTo("options.chunkTokens"))
                .hasMessageContaining("cannot fit even a 32-token chunk");
    }

    @Test
    void oneExtractionMayAddAsMuchAsTheGatheredFactsCapUnlessTheOutputLimitCannotCarryIt() {
        CosmirSettings roomy = CosmirSettings.of(QuestionOptions.none(), new ContextLimit("big", 200_000, 16_384));
        assertThat(roomy.memoryTokens()).isEqualTo(8_000);
        assertThat(roomy.extractTokens()).as("k x chunk, the paper's budget").isEqualTo(8_000);
        assertThat(roomy.extractLowered()).isFalse();

        CosmirSettings usual = CosmirSettings.of(QuestionOptions.none(), new ContextLimit("default", 128_000, 8_192));
        assertThat(usual.extractTokens())
                .as("an 8,192-token reply carries the facts' lines, about 1.2 reply tokens each, and its braces")
                .isEqualTo((int) ((8_192 - CosmirSettings.REPLY_OVERHEAD) / CosmirSettings.REPLY_PER_FACT_TOKEN))
                .isGreaterThan(30 * 60)
                .isLessThan(8_000);
        assertThat(usual.extractLowered()).isTrue();
    }

    @Test
    void inferredFactsAndQuestionsAreUnboundedByDefaultAndCappedOnlyWhenAsked() {
        ContextLimit window = new ContextLimit("default", 128_000, 8_192);
        CosmirSettings paper = CosmirSettings.of(QuestionOptions.none(), window);
        assertThat(paper.capInferred()).isFalse();
        assertThat(paper.questionsKept(40)).isEqualTo(40);
        assertThat(paper.inferredTokens(100))
                .as("what the window leaves beside the chunk, the gathered facts, the questions and the instructions")
                .isEqualTo(128_000
                        - 8_192
                        - 64_000
                        - 8_000
                        - CosmirSettings.QUESTIONS_TOKENS
                        - ChunkedReading.PROMPT_ALLOWANCE);
        assertThat(paper.inferredTokens(5_000))
                .as("a long question list takes room from the inferred facts")
                .isEqualTo(128_000 - 8_192 - 64_000 - 8_000 - 5_000 - ChunkedReading.PROMPT_ALLOWANCE);

        CosmirSettings capped =
                CosmirSettings.of(new QuestionOptions(Map.of("capInferred", true, "maxQuestions", 12)), window);
        assertThat(capped.inferredTokens(100)).isEqualTo(8_000);
        assertThat(capped.questionsKept(40)).isEqualTo(12);
        assertThat(capped.questionsKept(5)).isEqualTo(5);
    }

    @Test
    void aGatheredFactShowsLaterStepsTheWordsItWasTakenFrom() {
        Memory memory = new Memory();
        Fact found = memory.gather("Pip met a convict.", 1, "an  escaped convict", at(5, "an escaped\nconvict"));
        Fact lost = memory.gather("Joe is a smith.", 2, "the smith Joe", null);
        assertThat(found.line()).isEqualTo("[G1] Pip met a convict. (chunk 1) — \"an escaped convict\"");
        assertThat(lost.line()).isEqualTo("[G2] Joe is a smith. (chunk 2) — \"the smith Joe\" (not found in the text)");
        assertThat(found.tokens())
                .as("the quote counts towards the cap")
                .isEqualTo(TokenCounter.count(found.line()) + 1);
        assertThat(memory.render()).contains(found.line()).contains(lost.line());
    }
}
