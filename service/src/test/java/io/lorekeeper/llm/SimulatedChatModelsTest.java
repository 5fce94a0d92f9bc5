package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;

import io.lorekeeper.text.TokenCounter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The simulated model's fixed rules, with real token counts and the configured latency. */
class SimulatedChatModelsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static ChatResponse call(SimulatedChatModels models, String template, String system, String user) {
        return models.forProfile(null)
                .call(new Prompt(
                        List.of(new SystemMessage("[task: " + template + "]\n" + system), new UserMessage(user))));
    }

    private static JsonNode json(ChatResponse r) {
        return JSON.readTree(r.getResult().getOutput().getText());
    }

    @Test
    void ragAnswersWithTheFirstSentenceOfPassageOneAndCitesIt() {
        SimulatedChatModels models = new SimulatedChatModels(Duration.ZERO);
        String user =
                "<passage n=\"1\" session=\"[Session 1, 1 May]\">\nAnn: I adopted a cat. It is grey.\n</passage>\n\n"
                        + "<passage n=\"2\">\nBob: nice.\n</passage>\n\nQuestion: What did Ann adopt?\n";
        ChatResponse r = call(models, "rag/answer", "rules", user);
        JsonNode reply = json(r);
        assertThat(reply.path("answer").asString()).isEqualTo("Ann: I adopted a cat.");
        assertThat(reply.path("evidence").get(0).path("passage").asInt()).isEqualTo(1);
        assertThat(reply.path("evidence").get(0).path("quote").asString()).isEqualTo("Ann: I adopted a cat.");
        assertThat(reply.path("choice").isNull()).isTrue();
        assertThat(r.getMetadata().getUsage().getCompletionTokens())
                .isEqualTo(TokenCounter.count(r.getResult().getOutput().getText()));
        assertThat(r.getMetadata().getUsage().getPromptTokens()).isGreaterThan(TokenCounter.count(user));

        JsonNode none = json(call(models, "rag/answer", "rules", "\n\nQuestion: What?\n"));
        assertThat(none.path("answer").asString()).contains("not available");
        assertThat(none.path("evidence")).isEmpty();
    }

    @Test
    void judgeGradesByWordContainmentAndDeclinesForTheUnanswerable() {
        SimulatedChatModels models = new SimulatedChatModels(Duration.ZERO);
        String prompt = "<question>\nq\n</question>\n\n<reference>\n%s\n</reference>\n\n<candidate>\n%s\n</candidate>";
        assertThat(json(call(
                                models,
                                "eval/judge",
                                "",
                                prompt.formatted("- Oswin Clay\n- the keeper", "It was Oswin Clay, the keeper.")))
                        .path("verdict")
                        .asString())
                .isEqualTo("correct");
        assertThat(json(call(models, "eval/judge", "", prompt.formatted("- Oswin Clay", "Oswin Marsh")))
                        .path("verdict")
                        .asString())
                .isEqualTo("incorrect");
        String none =
                "(none: the document does not contain this information; the correct answer says it is not available)";
        assertThat(json(call(
                                models,
                                "eval/judge",
                                "",
                                prompt.formatted(none, "That is not available in the documents.")))
                        .path("verdict")
                        .asString())
                .isEqualTo("correct");
        assertThat(json(call(models, "eval/judge", "", prompt.formatted(none, "Oswin Clay")))
                        .path("verdict")
                        .asString())
                .isEqualTo("incorrect");
    }

    @Test
    void gamTemplates() {
        SimulatedChatModels models = new SimulatedChatModels(Duration.ZERO);
        JsonNode plan = json(call(
                models,
                "gam/plan",
                "tools:\n- keywordQueries: BM25\n- pages: read",
                "<memos>\nm\n</memos>\n\n<request>\nWho won?\n</request>"));
        assertThat(plan.path("keywordQueries").get(0).asString()).isEqualTo("Who won?");
        assertThat(plan.path("vectorQueries")).isEmpty();
        JsonNode integration = json(call(
                models,
                "gam/integrate",
                "",
                "<question>\nq\n</question>\n\n<page ref=\"D1-P3\">\n(context: ctx)\nOne. Two. Three.\n</page>\n"));
        assertThat(integration.path("summary").asString()).isEqualTo("One. Two.");
        assertThat(integration
                        .path("facts")
                        .get(0)
                        .path("sources")
                        .get(0)
                        .path("page")
                        .asInt())
                .isEqualTo(3);
        assertThat(json(call(models, "gam/reflect", "", "x")).path("enough").asBoolean())
                .isTrue();
        JsonNode answer = json(call(
                models,
                "gam/answer",
                "",
                "<notes>\nn\n</notes>\n\n<excerpt n=\"1\" page=\"D1-P3\">\nIt was Tom. Yes.\n</excerpt>\n"));
        assertThat(answer.path("answer").asString()).isEqualTo("It was Tom.");
        assertThat(answer.path("evidence").get(0).path("excerpt").asInt()).isEqualTo(1);
        assertThat(json(call(models, "gam/memo", "", "Page 0:\n<page>\nFirst line. Second.\n</page>"))
                        .path("memo")
                        .asString())
                .isEqualTo("First line.");
        assertThat(json(call(models, "gam/page-header", "", "Page 0:\n<page>\nFirst line. Second.\n</page>"))
                        .path("header")
                        .asString())
                .isEqualTo("First line.");
        assertThatThrownBy(() -> call(models, "mindgraph/extract", "", "x")).hasMessageContaining("no rule");
    }

    @Test
    void mindGraphBuildsOneNodePerBlockThenLooksUpTheFirstNodeBeforeAnswering() {
        SimulatedChatModels models = new SimulatedChatModels(Duration.ZERO);
        JsonNode build = json(call(
                models,
                "mindgraph/build",
                "",
                "Graph:\n(empty)\n\nBlock 2 of 5:\n<block>\nPip met a convict. It was cold.\n</block>"));
        JsonNode op = build.path("operations").get(0);
        assertThat(op.path("op").asString()).isEqualTo("add_node");
        assertThat(op.path("src").asString()).isEqualTo("Pip met a convict.");
        assertThat(op.path("id").asString()).startsWith("n2x");

        String user =
                "Graph:\n{\"nodes\":[{\"id\":\"D1:n2x9\",\"type\":\"claim\",\"content\":\"Pip met a convict.\"}],\"edges\":[]}\n\nQuestion: Whom did Pip meet?\n";
        SystemMessage system = new SystemMessage("[task: mindgraph/answer]\nrules");
        ChatResponse first = models.forProfile(null).call(new Prompt(List.of(system, new UserMessage(user))));
        AssistantMessage lookup = first.getResult().getOutput();
        assertThat(lookup.getToolCalls()).singleElement().satisfies(call -> {
            assertThat(call.name()).isEqualTo("lookup_source");
            assertThat(JSON.readTree(call.arguments()).path("node_id").asString())
                    .isEqualTo("D1:n2x9");
        });

        ToolResponseMessage passage = ToolResponseMessage.builder()
                .responses(List.of(new ToolResponseMessage.ToolResponse(
                        "call_1",
                        "lookup_source",
                        "D1:n2x9, characters 0-31:\n<source>\nPip met a convict. It was cold.\n</source>")))
                .build();
        JsonNode answer =
                json(models.forProfile(null).call(new Prompt(List.of(system, new UserMessage(user), lookup, passage))));
        assertThat(answer.path("answer").asString()).isEqualTo("Pip met a convict.");
        assertThat(answer.path("cited_nodes").get(0).asString()).isEqualTo("D1:n2x9");

        JsonNode empty = json(call(models, "mindgraph/answer", "", "Graph:\n(empty)\n\nQuestion: Whom?\n"));
        assertThat(empty.path("answer").asString()).contains("not available");
    }

    /** The MemCoT rules read the real templates' sections, so the prompts here are rendered from them. */
    @Test
    void memCotKeepsTheFirstPassagesJudgesByCandidatesAndAnswersFromTheFirstEvidence() {
        SimulatedChatModels models = new SimulatedChatModels(Duration.ZERO);
        PromptMarkup nothing = PromptMarkup.of("(nothing yet)");
        PromptMarkup found = PromptMarkup.of(
                "<passage id=\"D1-C2\" session=\"[Session 1, 1 May]\">\nAnn: one.\n</passage>\n"
                        + "<passage id=\"D1-C5\">\nBo: two.\n</passage>\n<passage id=\"D1-C9\">\nAnn: three.\n</passage>");
        assertThat(rendered(
                                models,
                                "memcot/zoom-in",
                                Map.of(
                                        "question",
                                        "q",
                                        "queries",
                                        "1. q",
                                        "previousQueries",
                                        "(none)",
                                        "memory",
                                        nothing,
                                        "results",
                                        found))
                        .path("usefulIds"))
                .extracting(JsonNode::asString)
                .containsExactly("D1-C2", "D1-C5");
        PromptMarkup windows =
                PromptMarkup.of("<context n=\"1\">\n<passage id=\"D1-C1\" known=\"yes\">\nA.\n</passage>\n"
                        + "<passage id=\"D1-C2\" selected=\"yes\">\nB.\n</passage>\n<passage id=\"D1-C3\">\nC.\n</passage>\n</context>\n\n"
                        + "<context n=\"2\">\n<passage id=\"D1-C8\">\nD.\n</passage>\n</context>");
        assertThat(rendered(
                                models,
                                "memcot/zoom-out",
                                Map.of("question", "q", "queries", "1. q", "memory", nothing, "windows", windows))
                        .path("usefulIds"))
                .extracting(JsonNode::asString)
                .containsExactly("D1-C3");

        Map<String, Object> judgeVars = new java.util.HashMap<>(Map.of(
                "question",
                "q",
                "queries",
                "1. q",
                "lastAction",
                "none",
                "memory",
                nothing,
                "missing",
                "x",
                "failures",
                "(none)",
                "maxQueries",
                3));
        judgeVars.put("candidates", PromptMarkup.of("<passage id=\"D1-C2\">\nAnn: one.\n</passage>"));
        judgeVars.put("retry", "");
        JsonNode judge = rendered(models, "memcot/judge", judgeVars);
        assertThat(judge.path("canAnswer").asBoolean()).isTrue();
        assertThat(judge.path("usefulIds")).extracting(JsonNode::asString).containsExactly("D1-C2");
        judgeVars.put("candidates", PromptMarkup.of("(no new candidates this step)"));
        JsonNode stuck = rendered(models, "memcot/judge", judgeVars);
        assertThat(stuck.path("canAnswer").asBoolean()).isFalse();
        assertThat(stuck.path("newQueries")).isEmpty();

        Map<String, Object> answerVars =
                new java.util.HashMap<>(Map.of("question", "q", "notes", "(none)", "choices", "", "choiceRules", ""));
        answerVars.put("abstainRule", "- Always give your best answer from the material.");
        answerVars.put(
                "memory", PromptMarkup.of("<passage id=\"D1-C5\">\nBo: I sold the boat. It leaked.\n</passage>"));
        JsonNode answer = rendered(models, "memcot/answer", answerVars);
        assertThat(answer.path("answer").asString()).isEqualTo("Bo: I sold the boat.");
        assertThat(answer.path("evidence").get(0).path("id").asString()).isEqualTo("D1-C5");
        assertThat(answer.path("evidence").get(0).path("quote").asString()).isEqualTo("Bo: I sold the boat.");
        answerVars.put("memory", PromptMarkup.of("(no evidence was found)"));
        assertThat(rendered(models, "memcot/answer", answerVars).path("answer").asString())
                .contains("not available");
    }

    /** The real templates rendered, as the strategies would send them. */
    private static JsonNode rendered(SimulatedChatModels models, String template, Map<String, Object> vars) {
        PromptTemplates.Rendered prompt = new PromptTemplates().render(template, vars);
        return JSON.readTree(models.forProfile(null)
                .call(new Prompt(List.of(new SystemMessage(prompt.system()), new UserMessage(prompt.user()))))
                .getResult()
                .getOutput()
                .getText());
    }

    @Test
    void cosmirPlansTheQuestionExtractsFirstSentencesInfersFromTheNewestFactAndCitesTheOldest() {
        SimulatedChatModels models = new SimulatedChatModels(Duration.ZERO);
        String memory =
                "Open questions:\n- Who helped Pip?\n- Where?\n\nGathered facts:\n[G3] Pip met a convict. (chunk 1) — \"met a convict\"\n"
                        + "[G4] Joe is a smith. (chunk 2) — \"the smith\" (not found in the text)\n\nInferred facts:\n(none yet)";
        assertThat(rendered(models, "cosmir/plan", Map.of("query", "Who helped Pip?"))
                        .path("questions")
                        .get(0)
                        .asString())
                .isEqualTo("Who helped Pip?");
        JsonNode extract = rendered(
                models,
                "cosmir/extract",
                Map.of(
                        "query",
                        "q",
                        "memory",
                        memory,
                        "chunkLabel",
                        "Chunk 2 of 3",
                        "chunk",
                        "Joe was a smith. He lived by the marsh.",
                        "maxWords",
                        4_000));
        assertThat(extract.path("facts").get(0).path("fact").asString()).isEqualTo("Joe was a smith.");
        assertThat(extract.path("facts").get(0).path("quote").asString()).isEqualTo("Joe was a smith.");
        JsonNode infer = rendered(models, "cosmir/infer", Map.of("query", "q", "memory", memory, "maxWords", 4_000));
        assertThat(infer.path("inferred").get(0).path("basis").get(0).asString())
                .isEqualTo("G4");
        assertThat(infer.path("inferred").get(0).path("fact").asString()).isEqualTo("The text states: Joe is a smith.");
        JsonNode refine = rendered(
                models, "cosmir/refine", Map.of("query", "q", "memory", memory, "lengthRule", "Keep it short."));
        assertThat(refine.path("questions"))
                .extracting(JsonNode::asString)
                .containsExactly("Who helped Pip?", "Where?");
        Map<String, Object> manage = new java.util.HashMap<>(
                Map.of("question", "q", "memory", memory, "choices", "", "choiceRules", "", "abstainRule", ""));
        JsonNode answer = rendered(models, "cosmir/manage", manage);
        assertThat(answer.path("answer").asString()).isEqualTo("Pip met a convict.");
        assertThat(answer.path("citedFacts").get(0).asString()).isEqualTo("G3");
        manage.put("memory", "Open questions:\n(none)\n\nGathered facts:\n(none yet)\n\nInferred facts:\n(none yet)");
        assertThat(rendered(models, "cosmir/manage", manage).path("answer").asString())
                .contains("not available");
    }

    @Test
    void chainOfAgentsAppendsEachChunksFirstSentenceQuotedAndAnswersWithTheFirstQuote() {
        SimulatedChatModels models = new SimulatedChatModels(Duration.ZERO);
        Map<String, Object> vars = new java.util.HashMap<>(Map.of(
                "query",
                "q",
                "summary",
                "(nothing yet: this is the first part)",
                "summaryWords",
                6000,
                "answerRule",
                "Do not invent anything.",
                "chunkLabel",
                "Chunk 1 of 2",
                "chunk",
                "Pip met a convict. It was cold."));
        String first =
                rendered(models, "chain-of-agents/worker", vars).path("summary").asString();
        assertThat(first).isEqualTo("\"Pip met a convict.\"");
        vars.put("summary", first);
        vars.put("chunk", "Joe was a smith. He was kind.");
        String second =
                rendered(models, "chain-of-agents/worker", vars).path("summary").asString();
        assertThat(second).isEqualTo("\"Pip met a convict.\"\n\"Joe was a smith.\"");
        JsonNode answer = rendered(
                models,
                "chain-of-agents/manage",
                Map.of("question", "q", "summary", second, "choices", "", "choiceRules", "", "abstainRule", ""));
        assertThat(answer.path("answer").asString()).isEqualTo("Pip met a convict.");
        assertThat(answer.path("quotes").get(0).asString()).isEqualTo("Pip met a convict.");
    }

    @Test
    void sleepsTheConfiguredLatency() {
        SimulatedChatModels models = new SimulatedChatModels(Duration.ofMillis(120));
        long started = System.nanoTime();
        call(models, "gam/reflect", "", "x");
        assertThat((System.nanoTime() - started) / 1_000_000).isGreaterThanOrEqualTo(120);
    }
}
