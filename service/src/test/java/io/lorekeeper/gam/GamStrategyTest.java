package io.lorekeeper.gam;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.document.search.PageText;
import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.retrieval.Retriever;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import tools.jackson.databind.JsonNode;

/** The GAM researcher loop, driven by scripted model replies over a real ingested conversation. */
@LlmIntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GamStrategyTest {

    private static final String GROUP = "I went to an LGBTQ support group yesterday and it was so powerful.";
    private static final String DOG = "We adopted a puppy named Biscuit last weekend!";

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    Retriever retriever;

    UUID chat;
    UUID report;
    /** Eight sessions (pages) of three long turns each (about three chunks a page); "Kittiwake" is in each page's first turn. */
    UUID diary;

    @BeforeAll
    void ingest() {
        model.reset();
        scriptMemorizer();
        report = api.ingest(io.lorekeeper.support.TestDocuments.aText(
                        "Annual report of the Kilmory lifeboat station. In 2022 the crew launched 31 times and rescued 12 people. "
                                + "The new boat, the Margaret Lindsay, arrived in March.")
                .titled("Lifeboat report")
                .build());
        chat = api.ingest(aConversation()
                .session("1:56 pm on 8 May, 2023", "Caroline", GROUP, "Melanie", "That's great, Caroline!")
                .session(
                        "8:10 pm on 20 June, 2023",
                        "Melanie",
                        "I painted a sunrise over the lake.",
                        "Caroline",
                        "Beautiful.")
                .session("2:00 pm on 3 July, 2023", "Caroline", DOG, "Melanie", "Biscuit is such a cute name.")
                .build());
        var log = aConversation().titled("Diary of the Kittiwake");
        for (int day = 0; day < 8; day++) {
            log.session(
                    null,
                    "Skipper",
                    turn(day, 0, "The Kittiwake left harbour"),
                    "Mate",
                    turn(day, 1, "The nets came up"),
                    "Skipper",
                    turn(day, 2, "At dusk the lamps were trimmed"));
        }
        diary = api.ingest(log.build());
    }

    /** About 170 tokens of log entry, different for every day and turn. */
    private static String turn(int day, int turn, String opening) {
        StringBuilder text =
                new StringBuilder(opening).append(" on day ").append(day + 1).append('.');
        for (int i = 0; i < 9; i++) {
            text.append(" Entry ")
                    .append(day + 1)
                    .append('.')
                    .append(turn + 1)
                    .append('.')
                    .append(i + 1)
                    .append(": the wind held steady from the west and the swell ran long under a grey sky.");
        }
        return text.toString();
    }

    @BeforeEach
    void reset() {
        model.reset();
        scriptMemorizer();
    }

    private void scriptMemorizer() {
        model.on("gam/memo").reply(call -> {
            // the page alone decides: the prompt also holds the memos of earlier pages
            String page = call.user().substring(call.user().indexOf("<page>"));
            return "{\"memo\": \""
                    + (page.contains("Biscuit")
                            ? "Caroline adopted a puppy, Biscuit."
                            : page.contains("support group")
                                    ? "Caroline went to a support group."
                                    : "Melanie painted a sunrise.")
                    + "\"}";
        });
        model.on("gam/page-header").reply("{\"header\": \"A chat between Caroline and Melanie.\"}");
    }

    @Test
    void aQuestionTheMemosCannotSettleTriggersASecondRoundDrivenByTheFollowUps() {
        model.on("gam/plan")
                .once(plan(List.of("support group"), List.of(), List.of()))
                .once(plan(List.of("puppy Biscuit adopted"), List.of(), List.of()));
        model.on("gam/integrate")
                .once(integration("Caroline went to a support group on 7 May 2023.", 1, 0))
                .once(integration("Caroline went to a support group on 7 May 2023 and adopted Biscuit in July.", 1, 2));
        model.on("gam/reflect")
                .once(
                        "{\"enough\": false, \"missing\": \"the dog\", \"followUps\": [\"When did Caroline adopt her dog?\"]}")
                .once("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply(call -> answerQuoting(call.user(), "named Biscuit"));

        JsonNode answer = ask("What did Caroline do after the support group?", Map.of("output", "snippets"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        List<ScriptedChatModel.Call> plans = model.calls("gam/plan");
        assertThat(plans).hasSize(2);
        assertThat(plans.get(0).user())
                .as("the whole memory fits, so the planner sees all of it")
                .contains("D1-P0: Caroline went to a support group.")
                .contains("D1-P1: Melanie painted a sunrise.")
                .contains("D1-P2: Caroline adopted a puppy, Biscuit.");
        assertThat(plans.get(1).user())
                .contains("Still missing")
                .contains("When did Caroline adopt her dog?")
                .as("the paper's planner reads the request and the memory, not the running notes")
                .doesNotContain("Caroline went to a support group on 7 May 2023.")
                .doesNotContain("<notes>");
        JsonNode searches = events(answer, "gam.search");
        assertThat(searches.get(1).get("searches").get(0).get("query").asString())
                .isEqualTo("puppy Biscuit adopted");
        assertThat(searches.get(1).get("searches").get(0).get("pages").get(0).asString())
                .isEqualTo("D1-P2");
        assertThat(model.calls("gam/integrate").get(1).user())
                .contains("<page ref=\"D1-P2\">")
                .contains(DOG);
        JsonNode citation = answer.get("citations").get(0);
        assertThat(citation.get("quote").asString()).isEqualTo("named Biscuit");
        assertThat(citation.get("turnId").asString()).isEqualTo("D3:1");
        assertThat(answer.get("budgetLimited").asBoolean()).isFalse();
    }

    @Test
    void theLoopStopsAtMaxDepth() {
        model.on("gam/plan").reply(plan(List.of("support group"), List.of("painting"), List.of()));
        model.on("gam/integrate").reply(integration("Still unclear.", 1, 0));
        model.on("gam/reflect").reply("{\"enough\": false, \"followUps\": [\"more\", \"and more\"]}");
        model.on("gam/answer").reply("{\"answer\": \"unknown\", \"evidence\": [], \"confidence\": 0.1}");

        JsonNode answer = ask("Anything?", Map.of("maxDepth", 2));

        assertThat(model.calls("gam/plan")).hasSize(2);
        assertThat(model.calls("gam/reflect")).hasSize(2);
        assertThat(model.calls("gam/answer")).hasSize(1);
        assertThat(answer.get("status").asString()).isEqualTo("DONE");
    }

    @Test
    void anEnoughVerdictEndsTheResearchEvenWithFollowUpsLeft() {
        model.on("gam/plan").reply(plan(List.of("support group"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("Caroline went to a support group.", 1, 0));
        model.on("gam/reflect")
                .reply("{\"enough\": true, \"followUps\": [\"When exactly?\", \"Who else was there?\"]}");
        model.on("gam/answer").reply("{\"answer\": \"a support group\", \"evidence\": [], \"confidence\": 0.6}");

        JsonNode answer = ask("Where did Caroline go?", Map.of("maxDepth", 3));

        assertThat(model.calls("gam/plan"))
                .as("enough: true stops after the first round, follow-ups or not")
                .hasSize(1);
        assertThat(model.calls("gam/reflect")).hasSize(1);
        assertThat(model.calls("gam/answer")).hasSize(1);
        assertThat(answer.get("status").asString()).isEqualTo("DONE");
    }

    @Test
    void aNotEnoughVerdictWithoutFollowUpsEndsTheResearchForLackOfAnythingToAsk() {
        model.on("gam/plan").reply(plan(List.of("support group"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("Caroline went to a support group.", 1, 0));
        model.on("gam/reflect").reply("{\"enough\": false, \"missing\": \"the date\", \"followUps\": [\" \", \"\"]}");
        model.on("gam/answer").reply("{\"answer\": \"a support group\", \"evidence\": [], \"confidence\": 0.4}");

        JsonNode answer = ask("Where did Caroline go?", Map.of("maxDepth", 3));

        assertThat(model.calls("gam/plan"))
                .as("enough: false with only blank follow-ups leaves nothing to research next")
                .hasSize(1);
        assertThat(model.calls("gam/reflect")).hasSize(1);
        assertThat(model.calls("gam/answer")).hasSize(1);
        assertThat(answer.get("status").asString()).isEqualTo("DONE");
    }

    @Test
    void thePageIdToolReadsOnlyPagesTheMemosJustify() {
        model.on("gam/plan").once(plan(List.of(), List.of(), List.of(new int[] {1, 2}, new int[] {1, 99}, new int[] {
            2, 0
        })));
        model.on("gam/integrate").reply(integration("Biscuit.", 1, 2));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"Biscuit\", \"evidence\": [], \"confidence\": 0.6}");

        JsonNode answer = ask("What is the puppy called?", Map.of());

        JsonNode plan = events(answer, "gam.plan").get(0);
        assertThat(plan.get("rejectedPages")).extracting(JsonNode::asString).containsExactly("D1-P99", "D2-P0");
        String integrate = model.calls("gam/integrate").getFirst().user();
        assertThat(integrate)
                .contains("<page ref=\"D1-P2\">")
                .doesNotContain("D1-P99")
                .doesNotContain("D2-P0");
        assertThat(integrate).contains("(context: A chat between Caroline and Melanie.)");
    }

    @Test
    void aPlanWithOnePageOutOfRangeKeepsTheRestAndAPlainTextAnswerIsKept() {
        model.on("gam/plan").once(plan(List.of("puppy Biscuit"), List.of(), List.of(new int[] {0, 1}, new int[] {1, 2
        })));
        model.on("gam/integrate").reply(integration("Caroline adopted Biscuit.", 1, 2));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("Her puppy is called Biscuit.");

        JsonNode answer = ask("What is the puppy called?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Her puppy is called Biscuit.");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(0.2);
        assertThat(model.calls("gam/plan#repair"))
                .as("the bad page is dropped, not repaired")
                .isEmpty();
        assertThat(events(answer, "llm.dropped").get(0).get("path").asString()).isEqualTo("pages[0]");
        assertThat(events(answer, "llm.dropped").get(0).get("reason").asString())
                .contains("pages[0].doc")
                .contains("greater than 0");
        assertThat(model.calls("gam/integrate").getFirst().user())
                .as("the valid page was read")
                .contains("<page ref=\"D1-P2\">");
        assertThat(events(answer, "llm.plain-text")).hasSize(1);
    }

    @Test
    void aQuoteFromAnotherExcerptThanTheOneNamedIsStillCited() {
        model.on("gam/plan")
                .reply(plan(
                        List.of("puppy named Biscuit", "support group"),
                        List.of(),
                        List.of(new int[] {1, 2}, new int[] {1, 0})));
        model.on("gam/integrate").reply(integration("Caroline adopted Biscuit.", 1, 2));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply(call -> {
            String prompt = call.user();
            int shown = prompt.split("<excerpt n=\"", -1).length - 1;
            int right = Integer.parseInt(
                    answerQuoting(prompt, "named Biscuit").replaceAll("(?s).*\"excerpt\": (\\d+).*", "$1"));
            int wrong = shown > 1 ? right % shown + 1 : 99;
            return "{\"answer\": \"Biscuit\", \"evidence\": [{\"excerpt\": " + wrong
                    + ", \"quote\": \"named Biscuit\"}], \"confidence\": 0.8}";
        });

        JsonNode answer = ask("What is the puppy called?", Map.of("output", "snippets"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .containsExactly("named Biscuit");
    }

    @Test
    void disabledToolsAreNeverCalled() {
        model.on("gam/plan").reply(plan(List.of("support group"), List.of("a painting"), List.of(new int[] {1, 1})));
        model.on("gam/integrate").reply(integration("Melanie painted.", 1, 1));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"a sunrise\", \"evidence\": [], \"confidence\": 0.6}");

        JsonNode answer = ask("What did Melanie paint?", Map.of("tools", List.of("page")));

        JsonNode searches = events(answer, "gam.search").get(0).get("searches");
        List<String> tools = new ArrayList<>();
        searches.forEach(s -> tools.add(s.get("tool").asString()));
        assertThat(tools).containsExactly("page");
        assertThat(model.calls("gam/plan").getFirst().system())
                .contains("pages:")
                .doesNotContain("keywordQueries:")
                .doesNotContain("vectorQueries:");
    }

    @Test
    void aSpentBudgetStopsTheLoopBeforeTheAnswersReserveAndTheAnswererStillAnswers() {
        model.on("gam/plan").reply(plan(List.of("support group"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("Caroline went to a support group.", 1, 0));
        model.on("gam/reflect").reply("{\"enough\": false, \"followUps\": [\"when?\"]}");
        model.on("gam/answer").reply("{\"answer\": \"a support group\", \"evidence\": [], \"confidence\": 0.6}");

        // three calls: the last is kept for the answer, so the research makes two (plan, integrate)
        JsonNode answer = ask("What did Caroline do?", Map.of("budget", Map.of("maxCalls", 3)));

        assertThat(answer.get("status").asString()).isEqualTo("DONE");
        assertThat(answer.get("budgetLimited").asBoolean()).isTrue();
        assertThat(answer.get("answer").asString()).isEqualTo("a support group");
        assertThat(model.calls())
                .extracting(ScriptedChatModel.Call::template)
                .containsExactly("gam/plan", "gam/integrate", "gam/answer");
        assertThat(events(answer, "step.budget").get(0).get("step").asString()).isEqualTo("reflect");
        assertThat(answer.get("citations")).isNotEmpty();
    }

    @Test
    void researchSpansSeveralDocumentsAndLabelsTheirPages() {
        model.on("gam/plan").once(plan(List.of("lifeboat rescued"), List.of(), List.of(new int[] {2, 2})));
        model.on("gam/integrate").reply(integration("The crew rescued 12 people in 2022.", 1, 0));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply(call -> answerQuoting(call.user(), "rescued 12 people"));

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(report, chat),
                "question",
                "How many people did the crew rescue?",
                "strategy",
                "gam",
                "options",
                Map.of("output", "snippets")));

        assertThat(model.calls("gam/plan").getFirst().user())
                .contains("D1-P0: ")
                .contains("D2-P2: ");
        assertThat(events(answer, "gam.plan").get(0).get("rejectedPages")).isEmpty();
        String pages = model.calls("gam/integrate").getFirst().user();
        assertThat(pages).contains("<page ref=\"D1-P0\">").contains("<page ref=\"D2-P2\">");
        JsonNode citation = answer.get("citations").get(0);
        assertThat(citation.get("documentId").asString()).isEqualTo(report.toString());
        assertThat(citation.get("quote").asString()).isEqualTo("rescued 12 people");
    }

    // ---------------------------------------------------------------- output formats

    @Test
    void integrationOutputShowsTheAnswererOnlyTheNotesAndCitesThePagesTheyRestOn() {
        model.on("gam/plan").reply(plan(List.of("support group", "sunrise lake"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("Caroline went to a support group.", 1, 0));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        // excerpt numbers mean nothing when no excerpts were shown: this evidence must be ignored
        model.on("gam/answer")
                .reply("{\"answer\": \"a support group\", \"evidence\": [{\"excerpt\": 1, \"quote\": \"Beautiful.\"}], "
                        + "\"confidence\": 0.7}");

        JsonNode answer = ask("Where did Caroline go?", Map.of("output", "integration"));

        String prompt = model.calls("gam/answer").getFirst().user();
        assertThat(prompt)
                .contains("Caroline went to a support group. [D1-P0]")
                .doesNotContain("<excerpt")
                .doesNotContain(GROUP);
        JsonNode context = events(answer, "gam.context").get(0);
        assertThat(context.get("output").asString()).isEqualTo("integration");
        assertThat(context.get("excerptTokens").asInt()).isZero();
        // citations: snippets of the page the notes cite (session 1), never the quote the model gave
        PageText page0 = retriever.page(chat, 0).orElseThrow();
        assertThat(answer.get("citations")).isNotEmpty().hasSizeLessThanOrEqualTo(3);
        String text = text(chat);
        for (JsonNode citation : answer.get("citations")) {
            assertThat(citation.get("start").asInt()).isGreaterThanOrEqualTo(page0.start());
            assertThat(citation.get("end").asInt()).isLessThanOrEqualTo(page0.end());
            assertThat(text.substring(
                            citation.get("start").asInt(), citation.get("end").asInt()))
                    .isEqualTo(citation.get("quote").asString());
            assertThat(citation.get("quote").asString()).isNotEqualTo("Beautiful.");
        }
        assertThat(answer.get("citations").toString()).contains("support group");
    }

    @Test
    void pagesOutputShowsWholeCitedPagesWithinThePageTokenBudget() {
        model.on("gam/plan").reply(plan(List.of("Kittiwake"), List.of(), List.of()));
        model.on("gam/integrate")
                .reply(integration("Days 3, 1 and 5 matter.", new int[] {1, 2}, new int[] {1, 0}, new int[] {1, 4}));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"west\", \"evidence\": [], \"confidence\": 0.5}");

        askDiary("Where did the wind come from?", Map.of("output", "pages"));

        String prompt = model.calls("gam/answer").getFirst().user();
        // the cited pages, whole, in the order the notes cite them; pages read but not cited are left out
        assertThat(excerptPages(prompt)).containsExactly("D1-P2", "D1-P0", "D1-P4");
        assertThat(prompt)
                .contains(pageText(diary, 2))
                .contains(pageText(diary, 0))
                .contains(pageText(diary, 4))
                .doesNotContain("on day 2.");

        model.reset();
        scriptMemorizer();
        model.on("gam/plan").reply(plan(List.of("Kittiwake"), List.of(), List.of()));
        model.on("gam/integrate")
                .reply(integration("Days 3, 1 and 5 matter.", new int[] {1, 2}, new int[] {1, 0}, new int[] {1, 4}));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"west\", \"evidence\": [], \"confidence\": 0.5}");

        // about 560 tokens a page: a 1,000-token budget holds the first cited page only
        askDiary("Where did the wind come from?", Map.of("output", "pages", "pageTokens", 1000));

        assertThat(excerptPages(model.calls("gam/answer").getFirst().user())).containsExactly("D1-P2");
    }

    @Test
    void snippetsAreAtMostTwoChunksPerSourcePageAndTwelveInAll() {
        model.on("gam/plan").reply(plan(List.of("Kittiwake"), List.of(), List.of()));
        model.on("gam/integrate")
                .reply(integration(
                        "Seven days of westerly wind.",
                        new int[] {1, 0},
                        new int[] {1, 1},
                        new int[] {1, 2},
                        new int[] {1, 3},
                        new int[] {1, 4},
                        new int[] {1, 5},
                        new int[] {1, 6}));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"west\", \"evidence\": [], \"confidence\": 0.5}");

        JsonNode answer = askDiary("Where did the wind come from?", Map.of("output", "snippets", "pagesPerSearch", 8));

        assertThat(events(answer, "gam.search").get(0).get("searches").get(0).get("pages"))
                .hasSize(8);
        List<String> pages = excerptPages(model.calls("gam/answer").getFirst().user());
        // seven cited pages of three chunks each: two from each of the first six pages, then the cap of twelve
        assertThat(pages)
                .hasSize(12)
                .containsExactly(
                        "D1-P0", "D1-P0", "D1-P1", "D1-P1", "D1-P2", "D1-P2", "D1-P3", "D1-P3", "D1-P4", "D1-P4",
                        "D1-P5", "D1-P5");
        assertThat(events(answer, "gam.context").get(0).get("spans")).hasSize(12);
    }

    // ---------------------------------------------------------------- caps

    @Test
    void pagesPerSearchPageIdsPagesPerRoundAndFollowUpsAreCapped() {
        model.on("gam/plan")
                .once(plan(
                        List.of("Kittiwake"),
                        List.of(),
                        List.of(
                                new int[] {1, 0},
                                new int[] {1, 1},
                                new int[] {1, 2},
                                new int[] {1, 3},
                                new int[] {1, 4},
                                new int[] {1, 5},
                                new int[] {1, 6})))
                .once(plan(List.of(), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("Westerly.", 1, 0));
        model.on("gam/reflect")
                .once("{\"enough\": false, \"followUps\": [\"f1\", \"f2\", \"f3\", \"f4\", \"f5\", \"f6\", \"f7\"]}")
                .once("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"west\", \"evidence\": [], \"confidence\": 0.5}");

        JsonNode answer = askDiary(
                "Where did the wind come from?", Map.of("pagesPerSearch", 3, "maxPagesPerRound", 4, "maxDepth", 2));

        JsonNode searches = events(answer, "gam.search").get(0).get("searches");
        assertThat(searches.get(0).get("tool").asString()).isEqualTo("keyword");
        assertThat(searches.get(0).get("pages")).as("pagesPerSearch").hasSize(3);
        assertThat(searches.get(1).get("tool").asString()).isEqualTo("page");
        assertThat(searches.get(1).get("pages"))
                .extracting(JsonNode::asString)
                .as("five page ids at most")
                .containsExactly("D1-P0", "D1-P1", "D1-P2", "D1-P3", "D1-P4");
        assertThat(events(answer, "gam.plan").get(0).get("rejectedPages"))
                .extracting(JsonNode::asString)
                .containsExactly("D1-P5", "D1-P6");
        String integrate = model.calls("gam/integrate").getFirst().user();
        assertThat(integrate.split("<page ref=", -1)).as("maxPagesPerRound").hasSize(1 + 4);
        assertThat(events(answer, "gam.integrate").get(0).get("pagesRead")).hasSize(4);
        JsonNode reflect = events(answer, "gam.reflect").get(0);
        assertThat(reflect.get("followUps"))
                .extracting(JsonNode::asString)
                .containsExactly("f1", "f2", "f3", "f4", "f5");
        assertThat(model.calls("gam/plan").get(1).user())
                .contains("- f5")
                .doesNotContain("f6")
                .doesNotContain("f7");
    }

    @Test
    void aWallTimeBudgetEndsTheResearchWithTheBestAnswerSoFar() {
        // the planner takes longer than the question's one second: no later call is made
        model.on("gam/plan")
                .delay(java.time.Duration.ofMillis(1300))
                .reply(plan(List.of("support group"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("never", 1, 0));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"never\", \"evidence\": [], \"confidence\": 1}");

        JsonNode answer = ask("Where did Caroline go?", Map.of("budget", Map.of("maxSeconds", 1)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("budgetLimited").asBoolean()).isTrue();
        assertThat(model.calls("gam/integrate")).isEmpty();
        assertThat(model.calls("gam/answer")).isEmpty();
        assertThat(events(answer, "step.budget"))
                .extracting(b -> b.get("reason").asString())
                .allMatch(r -> r.contains("wall time"));
        assertThat(answer.get("answer").asString()).isNotEqualTo("never");
    }

    @Test
    void aMemoryTooLargeForThePlannerShowsTheMemosOfTheCurrentRequestAndPagesShownInAnyRoundCanBeRead() {
        model.on("gam/plan")
                .once(plan(List.of(), List.of(), List.of(new int[] {1, 1}, new int[] {1, 2})))
                .once(plan(List.of(), List.of(), List.of(new int[] {1, 0}, new int[] {1, 1}, new int[] {1, 2})));
        model.on("gam/integrate").reply(integration("Melanie painted a sunrise.", 1, 1));
        model.on("gam/reflect")
                .once("{\"enough\": false, \"followUps\": [\"When did Caroline adopt her puppy Biscuit?\"]}")
                .once("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"a sunrise\", \"evidence\": [], \"confidence\": 0.6}");

        // room for one memo line only
        JsonNode answer = ask("What did Melanie paint?", Map.of("memoTokens", 16));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        List<ScriptedChatModel.Call> plans = model.calls("gam/plan");
        assertThat(plans.get(0).user())
                .contains("D1-P1: Melanie painted a sunrise.")
                .doesNotContain("D1-P2:")
                .doesNotContain("D1-P0:");
        assertThat(plans.get(1).user())
                .as("the follow-up is about the puppy now")
                .contains("D1-P2: Caroline adopted a puppy, Biscuit.")
                .doesNotContain("D1-P1:");
        List<JsonNode> memos = new ArrayList<>();
        events(answer, "gam.memos").forEach(memos::add);
        assertThat(memos.get(0).get("shown").asInt()).isEqualTo(1);
        assertThat(memos.get(0).get("total").asInt()).isEqualTo(3);
        JsonNode plansTraced = events(answer, "gam.plan");
        assertThat(plansTraced.get(0).get("rejectedPages"))
                .extracting(JsonNode::asString)
                .as("its memo was not shown yet")
                .containsExactly("D1-P2");
        assertThat(plansTraced.get(1).get("rejectedPages"))
                .extracting(JsonNode::asString)
                .as("D1-P1 was shown in round 1, D1-P2 in round 2; D1-P0 never")
                .containsExactly("D1-P0");
        assertThat(model.calls("gam/integrate").get(1).user())
                .contains("<page ref=\"D1-P1\">")
                .contains("<page ref=\"D1-P2\">");
    }

    @Test
    void pagesFoundAgainAreIntegratedAgainUnlessRereadIsOffAndCapsAreOptions() {
        model.on("gam/plan")
                .once(plan(List.of("support group"), List.of(), List.of()))
                .once(plan(List.of("support group", "puppy Biscuit"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("Caroline went to a support group.", 1, 0));
        model.on("gam/reflect")
                .once("{\"enough\": false, \"followUps\": [\"the puppy\"]}")
                .once("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"She adopted Biscuit.\", \"evidence\": [], \"confidence\": 0.6}");

        JsonNode answer = ask("What did Caroline do after the support group?", Map.of());

        String second = model.calls("gam/integrate").get(1).user();
        assertThat(second).contains("<page ref=\"D1-P0\">").contains("<page ref=\"D1-P2\">");
        assertThat(events(answer, "gam.integrate").get(1).get("pagesReadAgain"))
                .extracting(JsonNode::asString)
                .containsExactly("D1-P0");

        model.reset();
        scriptMemorizer();
        model.on("gam/plan")
                .once(plan(List.of("support group"), List.of(), List.of()))
                .once(plan(List.of("support group", "puppy Biscuit"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("Caroline went to a support group.", 1, 0));
        model.on("gam/reflect")
                .once("{\"enough\": false, \"followUps\": [\"the puppy\"]}")
                .once("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"She adopted Biscuit.\", \"evidence\": [], \"confidence\": 0.6}");

        ask("What did Caroline do after the support group?", Map.of("reread", false, "maxPagesPerRound", 1));

        List<ScriptedChatModel.Call> integrations = model.calls("gam/integrate");
        assertThat(integrations.get(0).user().split("<page ref=", -1))
                .as("one page per round")
                .hasSize(2);
        assertThat(integrations.get(1).user()).contains("<page ref=\"D1-P2\">").doesNotContain("<page ref=\"D1-P0\">");
    }

    @Test
    void aRoundsQueriesRunAsOneSearchPerToolSoItsPagesAreAtMostPagesPerSearchEach() {
        model.on("gam/plan")
                .reply(plan(List.of("support group", "puppy Biscuit"), List.of("a painting of a sunrise"), List.of()));
        model.on("gam/integrate").reply(integration("Caroline went to a support group.", 1, 0));
        model.on("gam/reflect")
                .once("{\"enough\": false, \"followUps\": [\"the puppy\"]}")
                .once("{\"enough\": true, \"followUps\": []}")
                .once("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"She adopted Biscuit.\", \"evidence\": [], \"confidence\": 0.6}");

        JsonNode paper =
                ask("What did Caroline do after the support group?", Map.of("pagesPerSearch", 1, "plannerNotes", true));

        JsonNode searches = events(paper, "gam.search").get(0).get("searches");
        assertThat(searches).hasSize(2);
        assertThat(searches.get(0).get("tool").asString()).isEqualTo("keyword");
        assertThat(searches.get(0).get("query").asString()).isEqualTo("support group puppy Biscuit");
        assertThat(searches.get(1).get("tool").asString()).isEqualTo("vector");
        assertThat(searches.get(1).get("query").asString()).isEqualTo("a painting of a sunrise");
        assertThat(searches)
                .allSatisfy(search -> assertThat(search.get("pages")).hasSize(1));
        assertThat(events(paper, "gam.integrate").get(0).get("pagesRead").size())
                .as("the union of one search per tool")
                .isLessThanOrEqualTo(2);
        String integrate = model.calls("gam/integrate").getFirst().system();
        assertThat(integrate).doesNotContain("Resolve relative dates");
        assertThat(model.calls("gam/plan").get(1).user())
                .as("plannerNotes: the planner also reads the running notes")
                .contains("<notes>")
                .contains("Caroline went to a support group.");

        model.reset();
        scriptMemorizer();
        model.on("gam/plan")
                .reply(plan(List.of("support group", "puppy Biscuit"), List.of("a painting of a sunrise"), List.of()));
        model.on("gam/integrate").reply(integration("Caroline went to a support group.", 1, 0));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"She adopted Biscuit.\", \"evidence\": [], \"confidence\": 0.6}");

        JsonNode perQuery = ask(
                "What did Caroline do after the support group?",
                Map.of("pagesPerSearch", 1, "searchPerQuery", true, "resolveDates", true));

        JsonNode each = events(perQuery, "gam.search").get(0).get("searches");
        assertThat(each)
                .extracting(e -> e.get("query").asString())
                .containsExactly("support group", "puppy Biscuit", "a painting of a sunrise");
        assertThat(events(perQuery, "gam.integrate").get(0).get("pagesRead"))
                .extracting(JsonNode::asString)
                .as("a page per query")
                .containsExactlyInAnyOrder("D1-P0", "D1-P1", "D1-P2");
        assertThat(model.calls("gam/integrate").getFirst().system()).contains("Resolve relative dates");
    }

    @Test
    void aPageThatDoesNotFitTheRoundIsNamedAndStillReadInALaterRound() {
        model.on("gam/plan").reply(plan(List.of("support group", "puppy Biscuit"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("Caroline went to a support group.", 1, 0));
        model.on("gam/reflect")
                .once("{\"enough\": false, \"followUps\": [\"the puppy\"]}")
                .once("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"She adopted Biscuit.\", \"evidence\": [], \"confidence\": 0.6}");

        // room for one page per integration call; pages already read are not read again
        JsonNode answer = ask(
                "What did Caroline do after the support group?",
                Map.of("roundTokens", 1, "reread", false, "searchPerQuery", true));

        JsonNode first = events(answer, "gam.integrate").get(0);
        assertThat(first.get("pagesRead")).extracting(JsonNode::asString).containsExactly("D1-P0");
        assertThat(first.get("pagesLeftOut")).extracting(JsonNode::asString).containsExactly("D1-P2");
        assertThat(events(answer, "gam.integrate").get(1).get("pagesRead"))
                .extracting(JsonNode::asString)
                .as("left out for room, not read: so not skipped as read")
                .containsExactly("D1-P2");
    }

    @Test
    void theResearchersReasoningIsTracedButNeverReachesTheNotesOrTheAnswerer() {
        model.on("gam/plan")
                .reply("{\"thinking\": \"PLAN-REASONING the dog matters\", \"informationNeeds\": [\"dog\"], "
                        + "\"keywordQueries\": [\"puppy Biscuit\"], \"vectorQueries\": [], \"pages\": []}");
        model.on("gam/integrate")
                .reply(
                        "{\"thinking\": \"INTEGRATE-REASONING page 2 names the dog\", \"summary\": \"Caroline adopted "
                                + "Biscuit.\", \"facts\": [{\"fact\": \"Caroline adopted a puppy named Biscuit.\", \"sources\": [{\"doc\": 1, \"page\": 2}]}]}");
        model.on("gam/reflect")
                .reply("{\"thinking\": \"REFLECT-REASONING that settles it\", \"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"Biscuit\", \"evidence\": [], \"confidence\": 0.7}");

        JsonNode answer = ask("What is Caroline's puppy called?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(model.calls("gam/plan").getFirst().system()).contains("thinking");
        assertThat(model.calls("gam/integrate").getFirst().system()).contains("thinking");
        assertThat(model.calls("gam/reflect").getFirst().system()).contains("thinking");
        assertThat(model.calls("gam/reflect").getFirst().user())
                .contains("Caroline adopted a puppy named Biscuit.")
                .doesNotContain("INTEGRATE-REASONING");
        assertThat(model.calls("gam/answer").getFirst().user()).doesNotContain("REASONING");
        assertThat(events(answer, "gam.plan").get(0).get("plan").get("thinking").asString())
                .startsWith("PLAN-REASONING");
        assertThat(events(answer, "gam.integrate")
                        .get(0)
                        .get("integration")
                        .get("thinking")
                        .asString())
                .startsWith("INTEGRATE-REASONING");
        assertThat(events(answer, "gam.reflect").get(0).get("thinking").asString())
                .startsWith("REFLECT-REASONING");
    }

    @Test
    void byDefaultTheAnswererReadsTheIntegrationAloneAndCitationsComeFromThePagesBehindIt() {
        model.on("gam/plan").reply(plan(List.of("puppy Biscuit"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("Caroline adopted a puppy named Biscuit last weekend.", 1, 2));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"a puppy named Biscuit\", \"evidence\": [], \"confidence\": 0.7}");

        JsonNode answer = ask("What did Caroline adopt?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        String prompt = model.calls("gam/answer").getFirst().user();
        assertThat(prompt)
                .contains("Caroline adopted a puppy named Biscuit last weekend. [D1-P2]")
                .doesNotContain("<excerpt");
        JsonNode context = events(answer, "gam.context").get(0);
        assertThat(context.get("output").asString()).isEqualTo("integration");
        assertThat(context.get("excerptTokens").asInt()).isZero();
        JsonNode span = context.get("spans").get(0);
        assertThat(context.get("spans"))
                .as("the context is the page the notes rest on")
                .hasSize(1);
        assertThat(answer.get("citations")).isNotEmpty();
        assertThat(answer.get("citations").get(0).get("quote").asString()).contains("Biscuit");
        assertThat(answer.get("citations").get(0).get("start").asInt())
                .isGreaterThanOrEqualTo(span.get("start").asInt());
        assertThat(answer.get("citations").get(0).get("end").asInt())
                .isLessThanOrEqualTo(span.get("end").asInt());
    }

    @Test
    void theMemoToolFindsPagesByTheirMemos() {
        model.on("gam/plan").reply(plan(List.of(), List.of("adopting a young dog"), List.of()));
        model.on("gam/integrate").reply(integration("Caroline adopted Biscuit.", 1, 2));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"Biscuit\", \"evidence\": [], \"confidence\": 0.6}");

        JsonNode answer = ask("What is the puppy called?", Map.of("tools", List.of("memo"), "pagesPerSearch", 1));

        JsonNode search = events(answer, "gam.search").get(0).get("searches").get(0);
        assertThat(search.get("tool").asString()).isEqualTo("memo");
        assertThat(search.get("pages")).extracting(JsonNode::asString).containsExactly("D1-P2");
        assertThat(model.calls("gam/plan").getFirst().system())
                .contains("search over the memos")
                .doesNotContain("keywordQueries:");
    }

    @Test
    void unknownToolsAndOutputsAreRefused() {
        Api.Response response = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(chat),
                        "question",
                        "q",
                        "strategy",
                        "gam",
                        "options",
                        Map.of("tools", List.of("grep"))));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("field").asString()).isEqualTo("options.tools");
    }

    // ---------------------------------------------------------------- degraded steps and last resorts

    /** A reply cut at the output limit with nothing complete in it, cut again when asked with a larger limit. */
    private static final String CUT = "{\"thinking\": \"Let me go through the pages one by one, starting with";

    @Test
    void aReplyCutAtThePlanStepSearchesForTheRequestItselfAndTheQuestionIsAnswered() {
        model.on("gam/plan").cutOnce(CUT).cutOnce(CUT);
        model.on("gam/integrate").reply(integration("Caroline adopted a puppy named Biscuit.", 1, 2));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"Biscuit\", \"evidence\": [], \"confidence\": 0.7}");

        JsonNode answer = ask("What is the name of the puppy Caroline adopted?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Biscuit");
        assertThat(events(answer, "llm.truncated")).isNotEmpty();
        JsonNode failed = events(answer, "step.failed").get(0);
        assertThat(failed.get("step").asString()).isEqualTo("plan");
        assertThat(failed.get("reason").asString()).contains("output limit");
        assertThat(events(answer, "gam.plan").get(0).get("plan").get("keywordQueries"))
                .extracting(JsonNode::asString)
                .as("the request stands in for the plan")
                .containsExactly("What is the name of the puppy Caroline adopted?");
        assertThat(model.calls("gam/integrate")).hasSize(1);
    }

    @Test
    void aReplyCutAtTheIntegrateStepKeepsTheNotesAndTheResearchGoesOn() {
        model.on("gam/plan").reply(plan(List.of("support group"), List.of(), List.of()));
        model.on("gam/integrate")
                .once(integration("Caroline went to a support group.", 1, 0))
                .cutOnce(CUT)
                .cutOnce(CUT);
        model.on("gam/reflect")
                .once("{\"enough\": false, \"followUps\": [\"When was the support group?\"]}")
                .once("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"a support group\", \"evidence\": [], \"confidence\": 0.6}");

        JsonNode answer = ask("Where did Caroline go?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("a support group");
        assertThat(events(answer, "llm.truncated")).isNotEmpty();
        assertThat(events(answer, "step.failed").get(0).get("step").asString()).isEqualTo("integrate");
        assertThat(model.calls("gam/reflect").get(1).user())
                .as("the notes of round 1 stand")
                .contains("Caroline went to a support group.");
        assertThat(model.calls("gam/answer").getFirst().user()).contains("Caroline went to a support group.");
    }

    @Test
    void aReplyCutAtTheReflectStepEndsTheResearchWithTheNotesSoFar() {
        model.on("gam/plan").reply(plan(List.of("support group"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("Caroline went to a support group.", 1, 0));
        model.on("gam/reflect").cutOnce(CUT).cutOnce(CUT);
        model.on("gam/answer").reply("{\"answer\": \"a support group\", \"evidence\": [], \"confidence\": 0.6}");

        JsonNode answer = ask("Where did Caroline go?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("a support group");
        assertThat(events(answer, "step.failed").get(0).get("step").asString()).isEqualTo("reflect");
        assertThat(model.calls("gam/plan")).hasSize(1);
        assertThat(answer.get("budgetLimited").asBoolean()).isFalse();
    }

    @Test
    void aCutOrUnusableFinalReplyIsAnsweredByTheLastResortOverTheNotesAndThePagesRead() {
        model.on("gam/plan").reply(plan(List.of("puppy Biscuit"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("Caroline adopted a puppy named Biscuit.", 1, 2));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").cutOnce("{\"answer\": \"Bisc").cutOnce("{\"answer\": \"Bisc");
        model.on("last-resort/answer").reply("Biscuit");

        JsonNode answer = ask("What is the puppy called?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Biscuit");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(0.2);
        assertThat(events(answer, "llm.truncated")).isNotEmpty();
        assertThat(events(answer, "step.failed").get(0).get("step").asString()).isEqualTo("answer");
        assertThat(events(answer, "step.last-resort")).hasSize(1);
        String evidence = model.calls("last-resort/answer").getFirst().user();
        assertThat(evidence)
                .as("the notes and the page read")
                .contains("Caroline adopted a puppy named Biscuit. [D1-P2]")
                .contains(DOG);
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .anyMatch(q -> q.contains("Biscuit"));

        // an answer that does not match its schema, even after a repair, goes the same way
        model.reset();
        scriptMemorizer();
        model.on("gam/plan").reply(plan(List.of("puppy Biscuit"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("Caroline adopted a puppy named Biscuit.", 1, 2));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"evidence\": []}");
        model.on("last-resort/answer").reply("Biscuit");

        JsonNode unusable = ask("What is the puppy called?", Map.of());

        assertThat(unusable.get("status").asString()).isEqualTo("DONE");
        assertThat(unusable.get("answer").asString()).isEqualTo("Biscuit");
        assertThat(unusable.get("confidence").asDouble()).isEqualTo(0.2);
        assertThat(events(unusable, "step.last-resort")).hasSize(1);
    }

    @Test
    void theDeadlinePassingMidResearchLeavesTheAnswerCall() {
        // the plan takes two of the question's three seconds: integrating would run into the time kept for the answer
        model.on("gam/plan")
                .delay(java.time.Duration.ofMillis(2000))
                .reply(plan(List.of("support group"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("never", 1, 0));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"a support group\", \"evidence\": [], \"confidence\": 0.4}");

        JsonNode answer = ask("Where did Caroline go?", Map.of("budget", Map.of("maxSeconds", 3)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("budgetLimited").asBoolean()).isTrue();
        assertThat(answer.get("answer").asString()).isEqualTo("a support group");
        assertThat(model.calls("gam/integrate")).isEmpty();
        JsonNode stop = events(answer, "step.budget").get(0);
        assertThat(stop.get("step").asString()).isEqualTo("integrate");
        assertThat(stop.get("reason").asString()).contains("wall time");
    }

    @Test
    void withNothingGatheredTheAnswererIsStillAskedAndAnswers() {
        model.on("gam/plan").reply(plan(List.of(), List.of(), List.of()));
        model.on("gam/reflect").reply("{\"enough\": false, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"probably a puppy\", \"evidence\": [], \"confidence\": 0.1}");

        JsonNode answer = ask("What did Caroline adopt?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("probably a puppy");
        assertThat(model.calls("gam/integrate")).isEmpty();
        assertThat(model.calls("gam/answer").getFirst().user()).contains("(nothing gathered yet)");
    }

    @Test
    void theAnswerPromptAsksForTheBestAnswerUnlessAbstainingIsAllowedAndAnAbstentionCitesNothing() {
        model.on("gam/plan").reply(plan(List.of("support group"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("Caroline went to a support group.", 1, 0));
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer")
                .reply("{\"answer\": \"The information is not available in the documents.\", \"evidence\": [], "
                        + "\"confidence\": 0}");

        JsonNode byDefault = ask("What colour is Caroline's car?", Map.of());
        String system = model.calls("gam/answer").getFirst().system();
        assertThat(system).doesNotContainIgnoringCase("not available").contains("Always give your best answer");

        JsonNode abstaining = ask("What colour is Caroline's car?", Map.of("abstain", true));
        String allowed = model.calls("gam/answer").getLast().system();
        assertThat(allowed).contains("not available");

        assertThat(byDefault.get("status").asString()).isEqualTo("DONE");
        assertThat(abstaining.get("citations"))
                .as("an answer not given cites nothing")
                .isEmpty();
        assertThat(byDefault.get("citations")).isEmpty();
    }

    @Test
    void integrateAndReflectReadTheRoundsRequestWithTheFollowUps() {
        model.on("gam/plan").reply(plan(List.of("support group", "puppy Biscuit"), List.of(), List.of()));
        model.on("gam/integrate").reply(integration("Caroline went to a support group.", 1, 0));
        model.on("gam/reflect")
                .once("{\"enough\": false, \"followUps\": [\"What is the puppy called?\"]}")
                .once("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"Biscuit\", \"evidence\": [], \"confidence\": 0.6}");

        ask("What did Caroline do after the support group?", Map.of());

        assertThat(model.calls("gam/integrate").get(0).user())
                .contains("<request>\nWhat did Caroline do after the support group?\n</request>");
        assertThat(model.calls("gam/integrate").get(1).user()).contains("Still missing:\n- What is the puppy called?");
        assertThat(model.calls("gam/reflect").get(1).user()).contains("Still missing:\n- What is the puppy called?");
        assertThat(model.calls("gam/integrate").get(0).system()).contains("at most 30 facts");
    }

    private JsonNode askDiary(String question, Map<String, Object> options) {
        return api.ask(
                Map.of("documentIds", List.of(diary), "question", question, "strategy", "gam", "options", options));
    }

    /** The page label of every excerpt in an answer prompt, in order. */
    private static List<String> excerptPages(String prompt) {
        List<String> pages = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<excerpt n=\"(\\d+)\" page=\"([^\"]+)\">")
                .matcher(prompt);
        for (int n = 1; m.find(); n++) {
            assertThat(Integer.parseInt(m.group(1))).isEqualTo(n);
            pages.add(m.group(2));
        }
        return pages;
    }

    private String text(UUID document) {
        return api.get("/v1/documents/" + document + "/text").json().get("text").asString();
    }

    private String pageText(UUID document, int page) {
        return retriever.page(document, page).orElseThrow().text();
    }

    private JsonNode ask(String question, Map<String, Object> options) {
        return api.ask(
                Map.of("documentIds", List.of(chat), "question", question, "strategy", "gam", "options", options));
    }

    private JsonNode events(JsonNode question, String type) {
        return tools.jackson.databind.json.JsonMapper.builder().build().valueToTree(api.traceEvents(question, type));
    }

    private static String plan(List<String> keyword, List<String> vector, List<int[]> pages) {
        StringBuilder refs = new StringBuilder();
        for (int[] p : pages) {
            refs.append(refs.isEmpty() ? "" : ",")
                    .append("{\"doc\": ")
                    .append(p[0])
                    .append(", \"page\": ")
                    .append(p[1])
                    .append('}');
        }
        return "{\"informationNeeds\": [\"what happened\"], \"keywordQueries\": " + json(keyword)
                + ", \"vectorQueries\": " + json(vector) + ", \"pages\": [" + refs + "]}";
    }

    private static String integration(String summary, int doc, int page) {
        return "{\"summary\": \"" + summary + "\", \"facts\": [{\"fact\": \"" + summary + "\", \"sources\": [{\"doc\": "
                + doc + ", \"page\": " + page + "}]}]}";
    }

    /** Notes with one fact per source page. */
    private static String integration(String summary, int[]... pages) {
        StringBuilder facts = new StringBuilder();
        for (int[] p : pages) {
            facts.append(facts.isEmpty() ? "" : ", ")
                    .append("{\"fact\": \"On page ")
                    .append(p[1])
                    .append("\", \"sources\": [{\"doc\": ")
                    .append(p[0])
                    .append(", \"page\": ")
                    .append(p[1])
                    .append("}]}");
        }
        return "{\"summary\": \"" + summary + "\", \"facts\": [" + facts + "]}";
    }

    private static String answerQuoting(String prompt, String quote) {
        int excerpt = prompt.indexOf(quote, prompt.indexOf("<excerpt"));
        String before = prompt.substring(0, excerpt);
        int n = before.lastIndexOf("<excerpt n=\"");
        String number = before.substring(n + 12, before.indexOf('"', n + 12));
        return "{\"answer\": \"She adopted a puppy named Biscuit.\", \"evidence\": [{\"excerpt\": " + number
                + ", \"quote\": \"" + quote + "\"}], \"confidence\": 0.8}";
    }

    private static String json(List<String> values) {
        return "[" + String.join(",", values.stream().map(v -> "\"" + v + "\"").toList()) + "]";
    }
}
