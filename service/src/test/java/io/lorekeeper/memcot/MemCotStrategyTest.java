package io.lorekeeper.memcot;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The MemCoT loop driven by scripted replies over a real ingested conversation: when it stops,
 * how BREAK and DELETE change the queries, the failed queue, zoom-out inside a session, the step
 * cap, budgets, temperatures, and replies that are only partly usable.
 */
@LlmIntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MemCotStrategyTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern PASSAGE =
            Pattern.compile("<passage id=\"([^\"]+)\"([^>]*)>\\n(.*?)\\n</passage>", Pattern.DOTALL);
    private static final Pattern CONTEXT = Pattern.compile("<context n=\"\\d+\">\\n(.*?)</context>", Pattern.DOTALL);

    /** Long enough that every turn is a chunk of its own (turn chunks hold at most 128 tokens). */
    static final String PADDING =
            " We talked about it for a long while that evening, going over every small detail more than"
                    + " once, the way old friends do when neither of them is in any hurry to leave the kitchen table and the tea is still warm."
                    + " Outside the rain kept falling on the garden, the dog slept by the stove, and the radio played quietly in the next room.";

    static final String GROUP = "I went to an LGBTQ support group yesterday and it was so powerful.";
    static final String STORIES = "People shared their transgender stories and I felt accepted.";
    static final String COUNSELING = "I think I want to study counseling next year.";
    static final String SUNRISE = "I painted a sunrise over the lake last weekend.";
    static final String SISTER = "No, I gave it to my sister as a birthday present.";
    static final String PUPPY = "We adopted a puppy named Biscuit last weekend!";
    static final String BEAGLE = "He is a beagle and loves the beach.";

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    UUID chat;

    @BeforeAll
    void ingest() {
        model.reset();
        chat = api.ingest(aConversation()
                .session(
                        "1:56 pm on 8 May, 2023",
                        "Caroline",
                        GROUP + PADDING,
                        "Melanie",
                        "That's great, Caroline! What happened there?" + PADDING,
                        "Caroline",
                        STORIES + PADDING,
                        "Melanie",
                        "I am so proud of you for going." + PADDING,
                        "Caroline",
                        COUNSELING + PADDING)
                .session(
                        "8:10 pm on 20 June, 2023",
                        "Melanie",
                        SUNRISE + PADDING,
                        "Caroline",
                        "Beautiful. Did you sell it?" + PADDING,
                        "Melanie",
                        SISTER + PADDING)
                .session(
                        "2:00 pm on 3 July, 2023",
                        "Caroline",
                        PUPPY + PADDING,
                        "Melanie",
                        "Biscuit is such a cute name." + PADDING,
                        "Caroline",
                        BEAGLE + PADDING)
                .build());
    }

    @BeforeEach
    void reset() {
        model.reset();
    }

    @Test
    void aJudgeThatCanAnswerAfterTheFirstStepStopsTheLoop() {
        model.on("memcot/zoom-in").reply(call -> perception("the date", idOf(call.user(), GROUP)));
        model.on("memcot/zoom-out").reply(call -> perception("", idOf(call.user(), STORIES)));
        model.on("memcot/judge")
                .reply(call -> judgement(true, null, List.of(), idOf(call.user(), GROUP), idOf(call.user(), STORIES)));
        model.on("memcot/answer")
                .reply(call -> answer(
                        "7 May 2023",
                        0.8,
                        evidence(idOf(call.user(), GROUP), "I went to an LGBTQ support group yesterday")));

        JsonNode answer = ask("When did Caroline go to the LGBTQ support group?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(memcotCalls()).containsExactly("memcot/zoom-in", "memcot/zoom-out", "memcot/judge", "memcot/answer");
        String zoomIn = model.calls("memcot/zoom-in").getFirst().user();
        assertThat(zoomIn)
                .contains("Current queries:\n1. When did Caroline go to the LGBTQ support group?")
                .contains("(none: this is the first search)")
                .contains("<memory>\n(nothing yet)\n</memory>")
                .contains("session=\"[Session 1, 1:56 pm on 8 May, 2023]\"");
        String zoomOut = model.calls("memcot/zoom-out").getFirst().user();
        assertThat(passages(zoomOut))
                .anySatisfy(p -> assertThat(p).startsWith(idOf(zoomOut, GROUP)).contains("selected=\"yes\""));
        assertThat(zoomOut).contains(STORIES).doesNotContain(SUNRISE).doesNotContain(PUPPY);
        String judge = model.calls("memcot/judge").getFirst().user();
        assertThat(candidates(judge)).containsExactly(idOf(judge, GROUP), idOf(judge, STORIES));
        String responder = model.calls("memcot/answer").getFirst().user();
        assertThat(responder.indexOf(GROUP)).isPositive().isLessThan(responder.indexOf(STORIES));
        assertThat(responder)
                .contains("session=\"[Session 1, 1:56 pm on 8 May, 2023]\"")
                .doesNotContain(PUPPY);

        assertThat(answer.get("answer").asString()).isEqualTo("7 May 2023");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(0.8);
        JsonNode citation = answer.get("citations").get(0);
        assertThat(citation.get("quote").asString()).isEqualTo("I went to an LGBTQ support group yesterday");
        assertThat(citation.get("turnId").asString()).isEqualTo("D1:1");
        assertThat(sourceText(citation)).isEqualTo(citation.get("quote").asString());

        JsonNode memory = events(answer, "memcot.memory-update").get(0);
        assertThat(memory.get("failed").asBoolean()).isFalse();
        assertThat(turnIds(memory.get("semantic"))).containsExactly("D1:1", "D1:3");
        JsonNode context = events(answer, "memcot.context").get(0);
        assertThat(context.get("stop").asString()).isEqualTo("answerable");
        assertThat(context.get("steps").asInt()).isEqualTo(1);
        assertThat(context.get("memoryTokens").asInt()).isPositive();
        assertThat(events(answer, "memcot.judge").get(0).get("canAnswer").asBoolean())
                .isTrue();
        assertThat(events(answer, "memcot.zoom-in").get(0).get("missing").asString())
                .isEqualTo("the date");
        for (ScriptedChatModel.Call call : model.calls().stream()
                .filter(c -> c.template().startsWith("memcot/"))
                .toList()) {
            // the paper's temperatures: the perception agents and the responder at 1.0, the judge at 0
            assertThat(call.options().getTemperature())
                    .as(call.template())
                    .isEqualTo(call.template().equals("memcot/judge") ? 0.0 : 1.0);
        }
    }

    @Test
    void breakReplacesTheQueueWithSubQueriesAndDeleteDropsWhatIsSettled() {
        model.on("memcot/zoom-in").reply(call -> perception("", idsOf(call.user(), GROUP, PUPPY)));
        model.on("memcot/zoom-out").reply(perception("", new String[0]));
        model.on("memcot/judge")
                .reply(inTurn(
                        call -> judgement(
                                false,
                                "BREAK",
                                List.of("Caroline support group", "Caroline adopted a puppy"),
                                idsOf(call.user(), GROUP)),
                        call -> judgementWith(false, "delete", List.of(), List.of(1), idsOf(call.user(), PUPPY)),
                        call -> judgement(true, null, List.of(), idsOf(call.user(), PUPPY))));
        model.on("memcot/answer").reply(answer("a support group, then a puppy", 0.7));

        JsonNode answer = ask("What did Caroline do in May and in July?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        JsonNode queries = events(answer, "memcot.queries");
        assertThat(queries).hasSize(3);
        assertThat(strings(queries.get(0).get("queries"))).containsExactly("What did Caroline do in May and in July?");
        assertThat(strings(queries.get(1).get("queries")))
                .containsExactly("Caroline support group", "Caroline adopted a puppy");
        assertThat(strings(queries.get(2).get("queries"))).containsExactly("Caroline adopted a puppy");
        JsonNode second = events(answer, "memcot.queries-next").get(1);
        assertThat(second.get("action").asString()).isEqualTo("DELETE");
        assertThat(strings(second.get("settled"))).containsExactly("Caroline support group");
        List<ScriptedChatModel.Call> judges = model.calls("memcot/judge");
        assertThat(judges.get(1).user())
                .contains("Last action: BREAK")
                .contains("Current queries:\n1. Caroline support group\n2. Caroline adopted a puppy");
        assertThat(judges.get(2).user())
                .contains("Last action: DELETE")
                .contains("Current queries:\n1. Caroline adopted a puppy\n");
        assertThat(model.calls("memcot/zoom-in").get(1).user())
                .contains("Queries of the previous step:\n1. What did Caroline do in May and in July?");
        // the evidence of step 1 is known in step 2 and not offered again
        String secondZoomIn = model.calls("memcot/zoom-in").get(1).user();
        assertThat(secondZoomIn.substring(secondZoomIn.indexOf("Passages found:")))
                .doesNotContain(GROUP);
        assertThat(secondZoomIn.substring(secondZoomIn.indexOf("<memory>"), secondZoomIn.indexOf("</memory>")))
                .contains(GROUP);
        assertThat(turnIds(events(answer, "memcot.memory-update").get(2).get("semantic")))
                .containsExactly("D1:1", "D3:1");
    }

    @Test
    void aStepThatAddsNothingEntersTheFailedQueueAndItsQueriesAreNeverSearchedAgain() {
        String question = "What is the name of Caroline's dog?";
        model.on("memcot/judge")
                .reply(inTurn(
                        call -> judgement(false, "BREAK", List.of("Caroline puppy name"), new String[0]),
                        call -> judgement(
                                false,
                                "BREAK",
                                List.of(
                                        "  WHAT is the name of Caroline's dog  ",
                                        "Caroline puppy name!",
                                        "beagle at the beach"),
                                idsOf(call.user(), PUPPY)),
                        call -> judgement(true, null, List.of(), new String[0])));
        // zoom-in keeps nothing in step 1, then the puppy in step 2 (through the judge, which sees the zoom-in's
        // candidates)
        model.on("memcot/zoom-in")
                .reply(call -> call.user().contains("1. Caroline puppy name")
                        ? perception("", idsOf(call.user(), PUPPY))
                        : perception("the name of the dog", new String[0]));
        model.on("memcot/zoom-out").reply(perception("", new String[0]));
        model.on("memcot/answer")
                .reply(call -> answer("Biscuit", 0.9, evidence(idOf(call.user(), PUPPY), "named Biscuit")));

        JsonNode answer = ask(question, Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        JsonNode memory = events(answer, "memcot.memory-update");
        assertThat(memory.get(0).get("failed").asBoolean()).isTrue();
        JsonNode failure = memory.get(0).get("failedQueue").get(0);
        assertThat(failure.get("step").asInt()).isEqualTo(1);
        assertThat(strings(failure.get("queries"))).containsExactly(question);
        assertThat(failure.get("missing").asString()).isEqualTo("the name of the dog");
        assertThat(memory.get(1).get("failed").asBoolean()).isFalse();
        assertThat(model.calls("memcot/judge").get(1).user())
                .contains("- step 1, after action none: searched " + question + "; still missing: the name of the dog");
        JsonNode next = events(answer, "memcot.queries-next").get(1);
        assertThat(strings(next.get("droppedRepeats"))).containsExactly("WHAT is the name of Caroline's dog");
        assertThat(strings(next.get("next"))).containsExactly("Caroline puppy name!", "beagle at the beach");
        JsonNode queries = events(answer, "memcot.queries");
        assertThat(strings(queries.get(2).get("queries")))
                .containsExactly("Caroline puppy name!", "beagle at the beach");
        assertThat(answer.get("citations").get(0).get("turnId").asString()).isEqualTo("D3:1");
    }

    @Test
    void withNothingNewToSearchAndAnEmptyMemoryTheResponderReadsTheQuestionsBestPassages() {
        String question = "What colour is Melanie's car?";
        model.on("memcot/zoom-in").reply(perception("the car", new String[0]));
        model.on("memcot/judge")
                .reply(judgement(false, "BREAK", List.of("what colour is melanie's car"), new String[0]));
        model.on("memcot/answer").reply(answer("Probably blue; no passage names the colour.", 0.6));

        JsonNode answer = ask(question, Map.of("wholeDocumentFallback", false, "noNewQueries", "stop"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(memcotCalls()).containsExactly("memcot/zoom-in", "memcot/judge", "memcot/answer");
        assertThat(model.calls("last-resort/answer")).isEmpty();
        assertThat(answer.get("answer").asString()).isEqualTo("Probably blue; no passage names the colour.");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(Responder.UNSURE_CONFIDENCE);
        String responder = model.calls("memcot/answer").getFirst().user();
        assertThat(responder)
                .contains("the passages that match the question best")
                .contains("<passage id=");
        JsonNode context = events(answer, "memcot.context").get(0);
        assertThat(context.get("retrieved").asBoolean()).isTrue();
        assertThat(context.get("units")).isNotEmpty();
        JsonNode next = events(answer, "memcot.queries-next").get(0);
        assertThat(strings(next.get("droppedRepeats"))).containsExactly("what colour is melanie's car");
        assertThat(strings(next.get("next"))).isEmpty();
        assertThat(events(answer, "memcot.context").get(0).get("stop").asString())
                .isEqualTo("no-new-queries");
    }

    @Test
    void aJudgeProposingOnlyFailedQueriesIsAskedAgainAsTheAuthorsCodeDoes() {
        String question = "What colour is Melanie's car?";
        model.on("memcot/zoom-in")
                .reply(call -> call.user().contains("1. Melanie painting")
                        ? perception("", idsOf(call.user(), SUNRISE))
                        : perception("the car", new String[0]));
        model.on("memcot/zoom-out").reply(perception("", new String[0]));
        model.on("memcot/judge")
                .reply(inTurn(
                        call -> judgement(false, "BREAK", List.of("what colour is melanie's car"), new String[0]),
                        call -> judgement(false, "BREAK", List.of("  What colour is Melanie's car  "), new String[0]),
                        call -> judgement(false, "BREAK", List.of("Melanie painting"), new String[0]),
                        call -> judgement(true, null, List.of(), idsOf(call.user(), SUNRISE))));
        model.on("memcot/answer").reply(answer("Not said; she painted a sunrise.", 0.4));

        JsonNode answer = ask(question, Map.of("zoomOut", false));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(memcotCalls())
                .as("step 1's judge is asked twice more until it proposes a query that has not failed")
                .containsExactly(
                        "memcot/zoom-in",
                        "memcot/judge",
                        "memcot/judge",
                        "memcot/judge",
                        "memcot/zoom-in",
                        "memcot/judge",
                        "memcot/answer");
        List<ScriptedChatModel.Call> judges = model.calls("memcot/judge");
        assertThat(judges.get(0).user()).doesNotContain("Your last reply");
        assertThat(judges.get(1).user())
                .contains(
                        "Your last reply proposed no search that has not already failed: what colour is melanie's car");
        assertThat(judges.get(2).user()).contains("What colour is Melanie's car");
        JsonNode queries = events(answer, "memcot.queries");
        assertThat(strings(queries.get(1).get("queries"))).containsExactly("Melanie painting");
        assertThat(events(answer, "memcot.context").get(0).get("stop").asString())
                .isEqualTo("answerable");

        // noNewQueries: "stop", the service's earlier rule: the loop ends at the first verdict with nothing new
        model.reset();
        model.on("memcot/zoom-in").reply(perception("the car", new String[0]));
        model.on("memcot/judge")
                .reply(judgement(false, "BREAK", List.of("what colour is melanie's car"), new String[0]));
        model.on("memcot/answer").reply(answer("Not said.", 0.4));
        JsonNode stopped = ask(question, Map.of("noNewQueries", "stop", "wholeDocumentFallback", false));
        assertThat(memcotCalls()).containsExactly("memcot/zoom-in", "memcot/judge", "memcot/answer");
        assertThat(events(stopped, "memcot.context").get(0).get("stop").asString())
                .isEqualTo("no-new-queries");

        // a judge that never proposes anything new is asked at most four times more; then the loop stops
        model.reset();
        model.on("memcot/zoom-in").reply(perception("the car", new String[0]));
        model.on("memcot/judge")
                .reply(judgement(false, "BREAK", List.of("what colour is melanie's car"), new String[0]));
        model.on("memcot/answer").reply(answer("Not said.", 0.4));
        JsonNode stubborn = ask(question, Map.of("wholeDocumentFallback", false));
        assertThat(model.calls("memcot/judge")).hasSize(1 + MemCotSettings.REASKS);
        assertThat(events(stubborn, "memcot.context").get(0).get("stop").asString())
                .isEqualTo("no-new-queries");
    }

    @Test
    void aConversationTooLargeForTheAnswerersWindowIsNotReadWholeAndTheResponderAnswersFromTheMemory() {
        model.on("memcot/zoom-in").reply(call -> perception("the dog", idOf(call.user(), PUPPY)));
        model.on("memcot/judge")
                .reply(call -> judgement(false, "BREAK", List.of("the dog's breed"), idOf(call.user(), PUPPY)));
        model.on("memcot/answer").reply(call -> answer("a puppy", 0.9, evidence(idOf(call.user(), PUPPY), "")));
        List<Object> events = new ArrayList<>();
        io.lorekeeper.document.DocumentInfo info = documents
                .find(io.lorekeeper.security.CurrentTenant.DEFAULT, chat)
                .orElseThrow();
        io.lorekeeper.strategy.QuestionContext context = new io.lorekeeper.strategy.QuestionContext(
                UUID.randomUUID(),
                "What breed is Caroline's dog?",
                List.of(),
                new io.lorekeeper.strategy.QuestionOptions(Map.of("maxSteps", 1, "zoomOut", false)),
                List.of(info),
                retriever,
                gateway.open(
                        io.lorekeeper.llm.CallScope.document(info.tenantId(), info.id()),
                        io.lorekeeper.llm.Budget.unlimited()),
                events::add,
                io.lorekeeper.strategy.Cancellation.NEVER);
        MemCotSettings settings = MemCotSettings.of(context.options());
        Units units = new Units(context.documentIds(), retriever);
        // a profile whose window holds less than the conversation's tokens once the reply and instructions are kept
        io.lorekeeper.llm.ContextLimit small = new io.lorekeeper.llm.ContextLimit(
                "small", Responder.PROMPT_ALLOWANCE + 500 + info.tokenCount() / 2, 500);

        io.lorekeeper.strategy.StrategyResult result =
                new Responder(context, settings, units, small).answer(new MemCotLoop(context, settings, units).run());

        MemCotEvent.Context read = events.stream()
                .filter(MemCotEvent.Context.class::isInstance)
                .map(MemCotEvent.Context.class::cast)
                .findFirst()
                .orElseThrow();
        assertThat(read.stop()).isEqualTo("max-steps");
        assertThat(read.wholeDocument()).isFalse();
        assertThat(read.wholeDocumentRefused())
                .contains("do not fit")
                .contains("profile 'small'")
                .contains("context-window " + small.contextWindow());
        assertThat(read.units()).hasSize(1);
        assertThat(passages(model.calls("memcot/answer").getFirst().user()))
                .as("the short-term memory's one unit, not the conversation")
                .hasSize(1);
        assertThat(result.answer()).isEqualTo("a puppy");
        assertThat(result.confidence()).isEqualTo(Responder.UNSURE_CONFIDENCE);
    }

    @Autowired
    io.lorekeeper.document.Documents documents;

    @Autowired
    io.lorekeeper.retrieval.Retriever retriever;

    @Autowired
    io.lorekeeper.llm.LlmGateway gateway;

    @Test
    void whenTheJudgeNeverSaysItCanAnswerTheResponderReadsTheWholeConversationAsTheAuthorsCodeDoes() {
        model.on("memcot/zoom-in").reply(call -> perception("the dog", idOf(call.user(), PUPPY)));
        model.on("memcot/judge")
                .reply(call -> judgement(false, "BREAK", List.of("the dog's breed"), idOf(call.user(), PUPPY)));
        model.on("memcot/answer")
                .reply(call -> answer("a beagle", 0.9, evidence(idOf(call.user(), BEAGLE), "He is a beagle")));

        JsonNode answer = ask("What breed is Caroline's dog?", Map.of("maxSteps", 1, "zoomOut", false));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(memcotCalls()).containsExactly("memcot/zoom-in", "memcot/judge", "memcot/answer");
        String responder = model.calls("memcot/answer").getFirst().user();
        assertThat(passages(responder))
                .as("every turn of the conversation, not only the memory's one")
                .hasSize(11);
        assertThat(responder)
                .contains(GROUP)
                .contains(SISTER)
                .contains(BEAGLE)
                .contains("the evidence is the whole document")
                .contains("session=\"");
        JsonNode context = events(answer, "memcot.context").get(0);
        assertThat(context.get("wholeDocument").asBoolean()).isTrue();
        assertThat(context.get("retrieved").asBoolean()).isFalse();
        assertThat(context.has("wholeDocumentRefused")).isFalse();
        assertThat(context.get("units")).hasSize(11);
        assertThat(context.get("stop").asString()).isEqualTo("max-steps");
        assertThat(answer.get("answer").asString()).isEqualTo("a beagle");
        assertThat(answer.get("confidence").asDouble())
                .as("read from the whole document, the answer is not capped as an unsure memory's is")
                .isEqualTo(0.9);
        assertThat(answer.get("citations").get(0).get("quote").asString()).isEqualTo("He is a beagle");
        assertThat(answer.get("citations").get(0).get("turnId").asString()).isEqualTo("D3:3");

        model.reset();
        model.on("memcot/zoom-in").reply(call -> perception("the dog", idOf(call.user(), PUPPY)));
        model.on("memcot/judge").reply(call -> judgement(true, null, List.of(), idOf(call.user(), PUPPY)));
        model.on("memcot/answer").reply(call -> answer("a puppy", 0.7, evidence(idOf(call.user(), PUPPY), "")));
        JsonNode sure = ask("What did Caroline adopt?", Map.of("maxSteps", 1, "zoomOut", false));
        assertThat(passages(model.calls("memcot/answer").getFirst().user()))
                .as("a judge that can answer leaves the responder with the memory")
                .hasSize(1);
        assertThat(events(sure, "memcot.context").get(0).get("wholeDocument").asBoolean())
                .isFalse();
    }

    @Test
    void zoomOutNeverCrossesASessionBoundary() {
        model.on("memcot/zoom-in").reply(call -> perception("", idsOf(call.user(), COUNSELING, PUPPY)));
        model.on("memcot/zoom-out").reply(perception("", new String[0]));
        model.on("memcot/judge").reply(call -> judgement(true, null, List.of(), idsOf(call.user(), COUNSELING)));
        model.on("memcot/answer").reply(answer("counseling", 0.6));

        JsonNode answer = ask("What does Caroline want to study, and what pet did she adopt?", Map.of());
        JsonNode narrow = ask("What does Caroline want to study, and what pet did she adopt?", Map.of("window", 1));

        String wide = model.calls("memcot/zoom-out").get(0).user();
        List<Set<String>> sessions = windowSessions(wide);
        assertThat(sessions).hasSize(2).allSatisfy(s -> assertThat(s).hasSize(1));
        assertThat(sessions.get(0).iterator().next()).startsWith("[Session 1,");
        assertThat(sessions.get(1).iterator().next()).startsWith("[Session 3,");
        // ±4 around the last turn of session 1 reaches back to its first turn, but not into session 2
        assertThat(wide)
                .contains(GROUP)
                .contains(BEAGLE)
                .doesNotContain(SUNRISE)
                .doesNotContain(SISTER);
        JsonNode windows = events(answer, "memcot.zoom-out").get(0).get("windows");
        assertThat(windows).hasSize(2);
        assertThat(windows.get(0)).hasSize(5);
        assertThat(windows.get(1)).hasSize(3);

        String tight = model.calls("memcot/zoom-out").get(1).user();
        assertThat(tight)
                .doesNotContain(GROUP)
                .contains("I am so proud of you for going.")
                .contains("Biscuit is such a cute name.");
        assertThat(events(narrow, "memcot.zoom-out").get(0).get("windows"))
                .extracting(JsonNode::size)
                .containsExactly(2, 2);
    }

    @Test
    void maxStepsCapsTheLoopAndAnUnsureEndCapsTheConfidence() {
        AtomicInteger n = new AtomicInteger();
        model.on("memcot/zoom-in").reply(call -> perception("", firstId(call.user())));
        model.on("memcot/judge")
                .reply(call -> judgement(
                        false, "BREAK", List.of("another angle " + n.incrementAndGet()), firstId(call.user())));
        model.on("memcot/answer")
                .reply(call -> answer(
                        "a guess",
                        0.9,
                        evidence(passages(call.user()).getFirst().split(" ")[0], "")));

        JsonNode answer =
                ask("What happened?", Map.of("maxSteps", 2, "zoomOut", false, "wholeDocumentFallback", false));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(memcotCalls())
                .containsExactly("memcot/zoom-in", "memcot/judge", "memcot/zoom-in", "memcot/judge", "memcot/answer");
        assertThat(model.calls("memcot/answer").getFirst().user())
                .contains("stopped before its judge found the evidence sufficient");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(Responder.UNSURE_CONFIDENCE);
        assertThat(events(answer, "memcot.context").get(0).get("stop").asString())
                .isEqualTo("max-steps");
        assertThat(events(answer, "memcot.context").get(0).get("units")).hasSize(2);
        // an evidence item without a quote cites its whole unit, turn by turn
        JsonNode citation = answer.get("citations").get(0);
        assertThat(answer.get("citations")).hasSize(1);
        assertThat(citation.get("turnId").asString()).startsWith("D");
        assertThat(sourceText(citation))
                .isEqualTo(citation.get("quote").asString())
                .contains(PADDING.strip());
    }

    @Test
    void aSpentBudgetStopsTheLoopBeforeTheAnswersReserveAndTheResponderAnswersFromTheMemory() {
        model.on("memcot/zoom-in").reply(call -> perception("", idsOf(call.user(), PUPPY)));
        model.on("memcot/judge")
                .reply(call -> judgement(false, "BREAK", List.of("puppy breed"), idsOf(call.user(), PUPPY)));
        model.on("memcot/answer").reply(call -> answer("a puppy", 0.9, evidence(idOf(call.user(), PUPPY), PUPPY)));

        // three calls: the last is kept for the answer, so the loop makes two (zoom-in, judge)
        JsonNode answer =
                ask("What pet did Caroline adopt?", Map.of("zoomOut", false, "budget", Map.of("maxCalls", 3)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(memcotCalls()).containsExactly("memcot/zoom-in", "memcot/judge", "memcot/answer");
        assertThat(answer.get("budgetLimited").asBoolean()).isTrue();
        assertThat(answer.get("mode").asString()).isEqualTo("generated");
        assertThat(answer.get("answer").asString()).isEqualTo("a puppy");
        assertThat(answer.get("confidence").asDouble())
                .as("the judge never found the memory sufficient")
                .isEqualTo(Responder.UNSURE_CONFIDENCE);
        assertThat(answer.get("citations").get(0).get("turnId").asString()).isEqualTo("D3:1");
        JsonNode stop = events(answer, "step.budget").get(0);
        assertThat(stop.get("step").asString()).isEqualTo("zoom-in");
        assertThat(stop.get("reason").asString()).contains("calls");
        assertThat(events(answer, "memcot.context").get(0).get("stop").asString())
                .isEqualTo("budget");
    }

    @Test
    void repliesThatAreOnlyPartlyUsableKeepWhatIsUsable() {
        model.on("memcot/zoom-in")
                .reply(call -> "{\"thinking\": \"t\", \"useful_ids\": [\"D1-C999\", \""
                        + idOf(call.user(), GROUP).toLowerCase() + "\", \"the second one\", \""
                        + idOf(call.user(), STORIES) + "\"]}");
        model.on("memcot/zoom-out").reply("I could not decide which of these turns matter.");
        model.on("memcot/judge")
                .reply(call -> "Here is my verdict: {\"canAnswer\": true, \"action\": \"delete\", \"usefulIds\": [\"["
                        + idOf(call.user(), GROUP) + "]\", \"" + idOf(call.user(), STORIES) + "\"]}");
        // the first quote is from STORIES although the model names GROUP's unit; the second item has no id; the third
        // is invented
        model.on("memcot/answer")
                .reply(call -> answer(
                        "She felt accepted.",
                        0.7,
                        evidence(idOf(call.user(), GROUP), "People shared their transgender stories"),
                        Map.of("quote", "no id here"),
                        evidence("D1-C777", "words nobody said")));

        JsonNode answer = ask("How did Caroline feel at the support group?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        JsonNode zoomIn = events(answer, "memcot.zoom-in").get(0);
        assertThat(strings(zoomIn.get("kept"))).hasSize(2);
        assertThat(strings(zoomIn.get("unknownIds"))).containsExactly("D1-C999", "the second one");
        // prose where JSON was asked: one repair, then the prose is read for ids (it names none)
        assertThat(model.calls("memcot/zoom-out#repair")).hasSize(1);
        JsonNode zoomOut = events(answer, "memcot.zoom-out").get(0);
        assertThat(zoomOut.get("thinking").asString()).isEqualTo("I could not decide which of these turns matter.");
        assertThat(strings(zoomOut.get("kept"))).isEmpty();
        assertThat(events(answer, "llm.plain-text"))
                .extracting(e -> e.get("template").asString())
                .containsExactly("memcot/zoom-out");
        assertThat(turnIds(events(answer, "memcot.memory-update").get(0).get("semantic")))
                .containsExactly("D1:1", "D1:3");
        assertThat(events(answer, "llm.dropped"))
                .extracting(e -> e.get("template").asString())
                .containsExactly("memcot/answer");
        assertThat(answer.get("citations")).hasSize(1);
        JsonNode citation = answer.get("citations").get(0);
        assertThat(citation.get("quote").asString()).isEqualTo("People shared their transgender stories");
        assertThat(citation.get("turnId").asString()).isEqualTo("D1:3");
        JsonNode checked = events(answer, "memcot.answer").get(0).get("evidence");
        assertThat(checked).hasSize(2);
        assertThat(checked.get(1).get("unitKnown").asBoolean()).isFalse();
        assertThat(checked.get(1).get("quoteFound").asBoolean()).isFalse();
    }

    @Test
    void aResponderThatAnswersInProseStillAnswersAndCitesTheUnitsItNames() {
        model.on("memcot/zoom-in").reply(call -> perception("", idsOf(call.user(), PUPPY)));
        model.on("memcot/zoom-out").reply(perception("", new String[0]));
        model.on("memcot/judge").reply(call -> judgement(true, null, List.of(), idsOf(call.user(), PUPPY)));
        // the repair call's last user message is the repair request: read the ids from the original prompt
        model.on("memcot/answer")
                .reply(call -> "Her puppy is called Biscuit (see "
                        + idOf(call.messages().get(1).getText(), PUPPY) + ").");

        JsonNode answer = ask("What is the name of Caroline's puppy?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).startsWith("Her puppy is called Biscuit");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(MemCotAnswer.PROSE_CONFIDENCE);
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("turnId").asString())
                .containsExactly("D3:1");
        assertThat(events(answer, "llm.plain-text")).hasSize(1);
    }

    @Test
    void aJudgeWithNothingUsableEndsTheLoopAndTheReadersPicksStand() {
        model.on("memcot/zoom-in").reply(call -> perception("", idsOf(call.user(), PUPPY)));
        model.on("memcot/zoom-out").reply(call -> perception("", idsOf(call.user(), BEAGLE)));
        model.on("memcot/judge").reply("{\"canAnswer\": \"perhaps\", \"usefulIds\": 7}");
        model.on("memcot/answer")
                .reply(call -> answer("a beagle puppy", 0.8, evidence(idOf(call.user(), BEAGLE), "He is a beagle")));

        JsonNode answer = ask("What kind of dog did Caroline adopt?", Map.of("wholeDocumentFallback", false));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(memcotCalls())
                .containsExactly(
                        "memcot/zoom-in", "memcot/zoom-out", "memcot/judge", "memcot/judge#repair", "memcot/answer");
        assertThat(events(answer, "memcot.judge").get(0).get("failed").asString())
                .contains("memcot/judge");
        assertThat(turnIds(events(answer, "memcot.memory-update").get(0).get("semantic")))
                .containsExactly("D3:1", "D3:3");
        assertThat(events(answer, "memcot.context").get(0).get("stop").asString())
                .isEqualTo("judge-failed");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(Responder.UNSURE_CONFIDENCE);
        assertThat(answer.get("citations").get(0).get("turnId").asString()).isEqualTo("D3:3");
    }

    @Test
    void aFailingEndpointFailsTheQuestionRatherThanAnsweringFromNothing() {
        model.on("memcot/zoom-in").failOnce(new IllegalArgumentException("the endpoint refused the request"));

        JsonNode answer = ask("What kind of dog did Caroline adopt?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("FAILED");
        assertThat(memcotCalls()).containsExactly("memcot/zoom-in");
    }

    @Test
    void theJudgeSamplesAtZeroWhateverTheOtherAgentsUse() {
        model.on("memcot/zoom-in").reply(call -> perception("", idOf(call.user(), GROUP)));
        model.on("memcot/zoom-out").reply(perception("", new String[0]));
        model.on("memcot/judge").reply(call -> judgement(true, null, List.of(), idOf(call.user(), GROUP)));
        model.on("memcot/answer").reply(answer("yesterday", 0.5));

        ask(
                "When did Caroline go to the support group?",
                Map.of("perceptionTemperature", 0.7, "responderTemperature", 0.4));

        assertThat(model.calls("memcot/zoom-in").getFirst().options().getTemperature())
                .isEqualTo(0.7);
        assertThat(model.calls("memcot/zoom-out").getFirst().options().getTemperature())
                .isEqualTo(0.7);
        assertThat(model.calls("memcot/judge").getFirst().options().getTemperature())
                .isEqualTo(0.0);
        assertThat(model.calls("memcot/answer").getFirst().options().getTemperature())
                .isEqualTo(0.4);
    }

    @Test
    void badOptionsAreRefusedNamingTheField() {
        for (Map.Entry<String, Object> bad : Map.<String, Object>of(
                        "window", 99, "maxSteps", 0, "zoomOut", "no", "J", 3, "perceptionTemperature", 3.5)
                .entrySet()) {
            Api.Response response = api.post(
                    "/v1/questions",
                    Map.of(
                            "documentIds",
                            List.of(chat),
                            "question",
                            "q",
                            "strategy",
                            "memcot",
                            "options",
                            Map.of(bad.getKey(), bad.getValue())));
            assertThat(response.status()).as(bad.toString()).isEqualTo(400);
            assertThat(response.json().get("field").asString()).isEqualTo("options." + bad.getKey());
        }
        assertThat(api.get("/v1/strategies").body()).contains("\"memcot\"");
    }

    // ------------------------------------------------------------------ helpers

    /** The n-th reply to the n-th call; the last one for any call after that. */
    // ---------------------------------------------------------------- degraded steps and last resorts

    /** A reply cut at the output limit with nothing complete in it, cut again when asked with a larger limit. */
    private static final String CUT = "{\"thinking\": \"The first passage says that Caroline went to";

    @ParameterizedTest
    @ValueSource(strings = {"zoom-in", "zoom-out", "judge", "answer"})
    void aReplyCutAtAnyStepIsHandledThereAndTheQuestionIsAnswered(String step) {
        model.on("memcot/zoom-in").reply(call -> perception("the date", idsOf(call.user(), GROUP)));
        model.on("memcot/zoom-out").reply(call -> perception("", idsOf(call.user(), STORIES)));
        model.on("memcot/judge").reply(call -> judgement(true, null, List.of(), idsOf(call.user(), GROUP, STORIES)));
        model.on("memcot/answer").reply(answer("7 May 2023", 0.8));
        model.on("last-resort/answer").reply("7 May 2023");
        model.on("memcot/" + step).cutOnce(CUT).cutOnce(CUT);

        JsonNode answer = ask("When did Caroline go to the LGBTQ support group?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("7 May 2023");
        assertThat(events(answer, "llm.truncated")).isNotEmpty();
        JsonNode failed = events(answer, "step.failed").get(0);
        assertThat(failed.get("step").asString()).isEqualTo(step.equals("answer") ? "responder" : step);
        assertThat(failed.get("reason").asString()).contains("output limit");
        if (step.equals("answer")) {
            // the responder gave nothing: the last resort answers over the memory
            assertThat(events(answer, "step.last-resort")).hasSize(1);
            assertThat(answer.get("confidence").asDouble()).isEqualTo(0.2);
        } else {
            assertThat(model.calls("last-resort/answer")).isEmpty();
        }
    }

    @Test
    void theDeadlinePassingMidLoopLeavesTheResponderCall() {
        // the zoom-in takes two of the question's three seconds: the judge would run into the time kept for the answer
        model.on("memcot/zoom-in")
                .delay(java.time.Duration.ofMillis(2000))
                .reply(call -> perception("", idsOf(call.user(), PUPPY)));
        model.on("memcot/judge").reply(call -> judgement(true, null, List.of(), idsOf(call.user(), PUPPY)));
        model.on("memcot/answer").reply(call -> answer("a puppy", 0.9, evidence(idOf(call.user(), PUPPY), PUPPY)));

        JsonNode answer =
                ask("What pet did Caroline adopt?", Map.of("zoomOut", false, "budget", Map.of("maxSeconds", 3)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(memcotCalls()).containsExactly("memcot/zoom-in", "memcot/answer");
        assertThat(answer.get("budgetLimited").asBoolean()).isTrue();
        assertThat(answer.get("answer").asString()).isEqualTo("a puppy");
        JsonNode stop = events(answer, "step.budget").get(0);
        assertThat(stop.get("step").asString()).isEqualTo("judge");
        assertThat(stop.get("reason").asString()).contains("wall time");
        assertThat(events(answer, "memcot.memory-update").get(0).get("added"))
                .as("the reader's pick stands without a verdict")
                .hasSize(1);
    }

    @Test
    void anUnusableResponderReplyIsAnsweredByTheLastResortOverTheMemory() {
        model.on("memcot/zoom-in").reply(call -> perception("", idsOf(call.user(), PUPPY)));
        model.on("memcot/judge").reply(call -> judgement(true, null, List.of(), idsOf(call.user(), PUPPY)));
        model.on("memcot/answer").reply("{\"evidence\": []}");
        model.on("last-resort/answer").reply("A puppy named Biscuit.");

        JsonNode answer = ask("What pet did Caroline adopt?", Map.of("zoomOut", false));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("A puppy named Biscuit.");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(0.2);
        assertThat(events(answer, "step.failed").get(0).get("step").asString()).isEqualTo("responder");
        JsonNode lastResort = events(answer, "step.last-resort").get(0);
        assertThat(lastResort.get("retrieved").asBoolean())
                .as("the memory's units are the evidence")
                .isFalse();
        assertThat(model.calls("last-resort/answer").getFirst().user()).contains(PUPPY);
        assertThat(answer.get("citations").get(0).get("quote").asString()).contains(PUPPY);
    }

    @Test
    void theAnswerPromptAsksForTheBestAnswerUnlessAbstainingIsAllowedAndZeroTemperaturesAreAnOption() {
        model.on("memcot/zoom-in").reply(call -> perception("", idsOf(call.user(), PUPPY)));
        model.on("memcot/judge").reply(call -> judgement(true, null, List.of(), idsOf(call.user(), PUPPY)));
        model.on("memcot/answer").reply(answer("a puppy", 0.9));

        ask("What pet did Caroline adopt?", Map.of("zoomOut", false));
        assertThat(model.calls("memcot/answer").getLast().system())
                .doesNotContainIgnoringCase("not available")
                .contains("Always give your best answer");

        ask(
                "What pet did Caroline adopt?",
                Map.of("zoomOut", false, "abstain", true, "perceptionTemperature", 0, "responderTemperature", 0));
        assertThat(model.calls("memcot/answer").getLast().system()).contains("not available");
        assertThat(model.calls("memcot/answer").getLast().options().getTemperature())
                .isEqualTo(0.0);
        assertThat(model.calls("memcot/zoom-in").getLast().options().getTemperature())
                .isEqualTo(0.0);
    }

    @SafeVarargs
    private static Function<ScriptedChatModel.Call, String> inTurn(
            Function<ScriptedChatModel.Call, String>... replies) {
        AtomicInteger next = new AtomicInteger();
        return call -> replies[Math.min(next.getAndIncrement(), replies.length - 1)].apply(call);
    }

    private JsonNode ask(String question, Map<String, Object> options) {
        return api.ask(
                Map.of("documentIds", List.of(chat), "question", question, "strategy", "memcot", "options", options));
    }

    private List<String> memcotCalls() {
        return model.calls().stream()
                .map(ScriptedChatModel.Call::template)
                .filter(t -> t.startsWith("memcot/"))
                .toList();
    }

    private JsonNode events(JsonNode question, String type) {
        return tools.jackson.databind.json.JsonMapper.builder().build().valueToTree(api.traceEvents(question, type));
    }

    private String sourceText(JsonNode citation) {
        return api.get("/v1/documents/" + citation.get("documentId").asString() + "/text?start="
                        + citation.get("start").asInt() + "&end="
                        + citation.get("end").asInt())
                .json()
                .get("text")
                .asString();
    }

    /** The id of the passage in the prompt that contains {@code text}. */
    static String idOf(String prompt, String text) {
        Matcher m = PASSAGE.matcher(prompt);
        while (m.find()) {
            if (m.group(3).contains(text)) {
                return m.group(1);
            }
        }
        throw new AssertionError("no passage with '" + text + "' in the prompt:\n" + prompt);
    }

    /** The ids of the passages containing any of the texts, skipping texts the prompt does not show. */
    static String[] idsOf(String prompt, String... texts) {
        Set<String> ids = new LinkedHashSet<>();
        for (String text : texts) {
            Matcher m = PASSAGE.matcher(prompt);
            while (m.find()) {
                if (m.group(3).contains(text)) {
                    ids.add(m.group(1));
                }
            }
        }
        return ids.toArray(String[]::new);
    }

    static String[] firstId(String prompt) {
        Matcher m = PASSAGE.matcher(prompt.substring(Math.max(0, prompt.lastIndexOf("</memory>"))));
        return m.find() ? new String[] {m.group(1)} : new String[0];
    }

    /** Each passage as {@code id + attributes}. */
    private static List<String> passages(String prompt) {
        List<String> out = new ArrayList<>();
        Matcher m = PASSAGE.matcher(prompt);
        while (m.find()) {
            out.add(m.group(1) + m.group(2));
        }
        return out;
    }

    private static List<String> candidates(String judgePrompt) {
        String part = judgePrompt.substring(judgePrompt.indexOf("Candidates found in this step:"));
        List<String> out = new ArrayList<>();
        Matcher m = PASSAGE.matcher(part);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The session lines of the passages of each zoom-out window. */
    private static List<Set<String>> windowSessions(String prompt) {
        List<Set<String>> out = new ArrayList<>();
        Matcher w = CONTEXT.matcher(prompt);
        while (w.find()) {
            Set<String> sessions = new LinkedHashSet<>();
            Matcher s = Pattern.compile("session=\"([^\"]+)\"").matcher(w.group(1));
            while (s.find()) {
                sessions.add(s.group(1));
            }
            out.add(sessions);
        }
        return out;
    }

    private static List<String> turnIds(JsonNode units) {
        List<String> out = new ArrayList<>();
        units.forEach(u -> u.get("turnIds").forEach(t -> out.add(t.asString())));
        return out;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asString()));
        return out;
    }

    static String perception(String missing, String... ids) {
        return JSON.writeValueAsString(
                Map.of("thinking", "scripted", "missingInformation", missing, "usefulIds", Arrays.asList(ids)));
    }

    static String judgement(boolean canAnswer, String action, List<String> newQueries, String... useful) {
        return judgementWith(canAnswer, action, newQueries, List.of(), useful);
    }

    static String judgementWith(
            boolean canAnswer, String action, List<String> newQueries, List<Integer> resolved, String... useful) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("thinking", "scripted judgement");
        out.put("usefulIds", Arrays.asList(useful));
        out.put("canAnswer", canAnswer);
        out.put("action", action);
        out.put("newQueries", newQueries);
        out.put("resolved", resolved);
        return JSON.writeValueAsString(out);
    }

    static Map<String, Object> evidence(String id, String quote) {
        return Map.of("id", id, "quote", quote);
    }

    @SafeVarargs
    static String answer(String text, double confidence, Map<String, ?>... evidence) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("answer", text);
        out.put("evidence", List.of(evidence));
        out.put("confidence", confidence);
        return JSON.writeValueAsString(out);
    }
}
