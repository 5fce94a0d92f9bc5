package io.lorekeeper.mindgraph;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The MindGraph build and answer stages, driven by scripted model replies over real ingested documents. */
@LlmIntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MindGraphStrategyTest {

    static final String P1 = "Pip was raised by his sister and her husband Joe Gargery, the village blacksmith. "
            + "One Christmas Eve he met an escaped convict in the marshes.";
    static final String P2 =
            "Years later the lawyer Jaggers told Pip that he had great expectations from a secret benefactor. "
                    + "Pip believed the benefactor was Miss Havisham.";
    static final String P3 =
            "The convict Magwitch returned from New South Wales and revealed that he was the benefactor. "
                    + "Pip was ashamed at first but came to love him.";
    static final String STORY = P1 + "\n\n" + P2 + "\n\n" + P3;
    static final String WHALE = "Captain Ahab hunted the white whale Moby Dick. Ishmael sailed with him on the Pequod. "
            + "Starbuck, the first mate, argued against the hunt.";

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    org.springframework.jdbc.core.simple.JdbcClient jdbc;

    @Autowired
    GraphStore store;

    UUID story;
    UUID whale;

    @BeforeAll
    void ingest() {
        model.reset();
        story = api.ingest(aText(STORY).titled("Great Expectations, briefly").build());
        model.on("mindgraph/build").reply(sharedWhaleGraph());
        whale = api.ingest(aText(WHALE).titled("Moby Dick, briefly").build());
        model.reset();
    }

    @BeforeEach
    void reset() {
        model.reset();
    }

    @Test
    void editsApplyInOrderAcrossBlocksAndTheGraphIsReusedForTheSameQuestion() {
        scriptStoryBuild();
        model.on("mindgraph/answer")
                .reply(
                        "{\"answer\": \"Magwitch\", \"cited_nodes\": [\"convict\", \"ghost\"], \"confidence\": \"high\"}");

        JsonNode answer = ask(story, "Who was Pip's benefactor?", Map.of("chunkTokens", 40));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        List<ScriptedChatModel.Call> builds = model.calls("mindgraph/build");
        assertThat(builds).hasSize(3);
        assertThat(builds.get(0).user())
                .contains("Graph so far:\n(empty)")
                .contains("Block 1 of 3")
                .contains(P1)
                .doesNotContain(P2);
        assertThat(builds.get(1).user())
                .contains("\"id\":\"pip\"")
                .contains("\"id\":\"convict\"")
                .contains("Block 2 of 3")
                .contains(P2);
        assertThat(builds.get(2).user()).contains("\"id\":\"jaggers\"").contains(P3);
        assertThat(builds.get(0).user()).contains("Question: Who was Pip's benefactor?");

        List<JsonNode> blocks = events(answer, "mindgraph.graph-build");
        assertThat(blocks).hasSize(3);
        assertThat(blocks.get(1).get("rejected").get("quote-not-found").asInt()).isEqualTo(1);
        assertThat(blocks.get(1).get("rejected").get("unknown-id").asInt()).isEqualTo(1);
        assertThat(blocks.get(2).get("applied").get("edit_node").asInt()).isEqualTo(1);

        JsonNode graph = events(answer, "mindgraph.graph").getFirst();
        assertThat(graph.get("reused").asBoolean()).isFalse();
        assertThat(graph.get("nodes").asInt()).isEqualTo(4);
        assertThat(graph.get("edges").asInt()).isEqualTo(2);
        assertThat(graph.get("rejected").get("quote-not-found").asInt()).isEqualTo(1);
        assertThat(graph.get("graphTokens").asInt()).isPositive();
        assertThat(graph.get("documentTokens").asInt()).isPositive();
        JsonNode convict = node(graph.get("graph"), "convict");
        assertThat(convict.get("content").asString())
                .isEqualTo("Magwitch, the escaped convict and Pip's secret benefactor");
        assertThat(convict.get("quote").asString()).isEqualTo("an escaped convict");
        assertThat(convict.get("chunk").asInt()).isZero();
        JsonNode merged = convict.get("mergedSpans").get(0);
        assertThat(STORY.substring(merged.get(0).asInt(), merged.get(1).asInt()))
                .isEqualTo("The convict Magwitch returned from New South Wales");
        assertThat(node(graph.get("graph"), "havisham_claim"))
                .as("deleted in block 3")
                .isNull();

        assertThat(answer.get("answer").asString()).isEqualTo("Magwitch");
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .as("the node cites the quote it was added with and the quote an edit merged into it")
                .containsExactly("an escaped convict", "The convict Magwitch returned from New South Wales");
        JsonNode citation = answer.get("citations").get(0);
        assertThat(citation.get("quote").asString()).isEqualTo("an escaped convict");
        assertThat(STORY.substring(
                        citation.get("start").asInt(), citation.get("end").asInt()))
                .isEqualTo("an escaped convict");
        assertThat(events(answer, "mindgraph.answer")
                        .getFirst()
                        .get("unknownNodes")
                        .get(0)
                        .asString())
                .isEqualTo("ghost");
        String firstAnswerCall = model.calls("mindgraph/answer").getFirst().user();
        assertThat(firstAnswerCall)
                .contains("4 nodes, 2 edges, built from 3 chunks")
                .contains("\"id\":\"convict\"");

        model.reset();
        model.on("mindgraph/answer")
                .reply("{\"answer\": \"Magwitch\", \"cited_nodes\": [\"convict\"], \"confidence\": \"high\"}");
        JsonNode again = ask(story, "Who was Pip's benefactor?", Map.of("chunkTokens", 40));

        assertThat(again.get("status").asString()).as(again.toString()).isEqualTo("DONE");
        assertThat(model.calls("mindgraph/build"))
                .as("the stored graph is reused")
                .isEmpty();
        assertThat(events(again, "mindgraph.graph").getFirst().get("reused").asBoolean())
                .isTrue();
        assertThat(events(again, "mindgraph.graph").getFirst().get("nodes").asInt())
                .isEqualTo(4);
    }

    @Test
    void lookupSourceReturnsThePassageAroundTheNodeAndItsQuotesBecomeCitations() {
        scriptStoryBuild();
        model.on("mindgraph/answer")
                .onceCallTools(
                        "lookup_source", "{\"node_id\": \"convict\"}", "lookup_source", "{\"node_id\": \"nobody\"}")
                .once("{\"answer\": \"Magwitch\", \"cited_nodes\": [\"convict\"], \"confidence\": \"medium\", "
                        + "\"quotes\": [{\"node_id\": \"convict\", \"quote\": \"revealed that  he was the benefactor\"},"
                        + " {\"node_id\": \"pip\", \"quote\": \"Pip was raised\"}]}");

        JsonNode answer = ask(story, "Who paid for Pip's expectations?", Map.of("chunkTokens", 40));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        List<JsonNode> tools = events(answer, "mindgraph.tool");
        assertThat(tools).hasSize(2);
        String result = tools.get(0).get("result").asString();
        assertThat(result).contains("Source of node convict").contains("<source>\n" + STORY + "\n</source>");
        assertThat(tools.get(1).get("result").asString()).startsWith("error: there is no node 'nobody'");
        List<ScriptedChatModel.Call> calls = model.calls("mindgraph/answer");
        assertThat(calls).hasSize(2);
        assertThat(calls.get(1).messages().stream()
                        .anyMatch(m -> String.valueOf(m.getText()).contains("Source of node convict")
                                || m.toString().contains("Source of node convict")))
                .isTrue();
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .as("a quote attributed to a node never looked up is still found in the passage that was read")
                .containsExactly(
                        "an escaped convict",
                        "The convict Magwitch returned from New South Wales",
                        "revealed that he was the benefactor",
                        "Pip was raised");
        assertThat(events(answer, "mindgraph.answer")
                        .getFirst()
                        .get("quotesDropped")
                        .asInt())
                .isZero();
        assertThat(events(answer, "mindgraph.answer")
                        .getFirst()
                        .get("quotesFoundInAnotherPassage")
                        .asInt())
                .isEqualTo(1);
        assertThat(answer.get("confidence").asDouble()).isEqualTo(0.6);
    }

    @Test
    void aQuoteIsLookedForOnlyInThePassagesLookedUpNotInTheWholeDocument() {
        StringBuilder filler = new StringBuilder();
        for (int hour = 1; filler.length() < 3000; hour++) {
            filler.append("At hour ").append(hour).append(" the tide rose over the marsh stones and fell again. ");
        }
        String text = P1 + "\n\n" + filler.toString().strip() + "\n\n" + P3;
        UUID longStory =
                api.ingest(aText(text).titled("Great Expectations, padded").build());
        model.reset();
        model.on("mindgraph/build")
                .once(ops(
                        add("pip", "entity", "Pip, an orphan", "Pip was raised by his sister"),
                        add("magwitch", "entity", "Magwitch, the benefactor", "The convict Magwitch returned")));
        model.on("mindgraph/answer")
                .onceCallTools("lookup_source", "{\"node_id\": \"pip\"}")
                .once("{\"answer\": \"Joe and Magwitch\", \"cited_nodes\": [], \"confidence\": \"medium\", "
                        + "\"quotes\": [{\"node_id\": \"pip\", \"quote\": \"Joe Gargery, the village blacksmith\"},"
                        + " {\"node_id\": \"pip\", \"quote\": \"came to love him\"},"
                        + " {\"node_id\": \"magwitch\", \"quote\": \"returned from New South Wales\"}]}");

        JsonNode answer = ask(longStory, "Who looked after Pip?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(text.indexOf("came to love him")).isGreaterThan(1000 + text.indexOf("Pip was raised"));
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .as("only the quote inside the window lookup_source returned is cited; the node never looked up"
                        + " and the text past the window are not searched")
                .containsExactly("Joe Gargery, the village blacksmith");
        assertThat(events(answer, "mindgraph.answer")
                        .getFirst()
                        .get("quotesDropped")
                        .asInt())
                .isEqualTo(2);
    }

    @Test
    void aPlainTextFinalAnswerIsKeptUncitedAndAQuoteFoundNowhereIsDropped() {
        model.on("mindgraph/answer")
                .onceCallTools("lookup_source", "{\"node_id\": \"ahab\"}")
                .reply("Captain Ahab commands the Pequod.");

        JsonNode answer = ask(whale, "Who commands the ship?", Map.of("graph", "shared"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Captain Ahab commands the Pequod.");
        assertThat(answer.get("citations")).isEmpty();
        assertThat(answer.get("confidence").asDouble()).isEqualTo(0.3);
        assertThat(events(answer, "llm.plain-text")).hasSize(1);
    }

    @Test
    void aBuilderReplyWithNothingUsableSkipsItsBlockAndTheQuestionIsStillAnswered() {
        model.on("mindgraph/build").reply("I could not find anything worth adding.");
        model.on("mindgraph/answer").reply("{\"answer\": \"Joe\", \"cited_nodes\": [], \"confidence\": \"low\"}");

        JsonNode answer = ask(story, "Who raised Pip, really?", Map.of("chunkTokens", 40));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Joe");
        assertThat(events(answer, "mindgraph.graph-build")
                        .getFirst()
                        .get("rejected")
                        .get("unusable-reply")
                        .asInt())
                .isEqualTo(1);
    }

    @Test
    void communitySummariesAreWrittenOnceAndCachedForLaterQuestionsOnTheSameGraph() {
        model.on("mindgraph/summary")
                .reply(
                        call -> "{\"title\": \"Part " + (call.user().contains("ahab") ? "Ahab" : "crew")
                                + "\", \"rating\": 7, \"summary\": \"Who hunts what.\", \"findings\": [\"Ahab hunts the whale.\"]}");
        scriptSummaryWalk();

        JsonNode first = ask(whale, "Whom did Ahab hunt?", Map.of("graph", "shared"));

        assertThat(first.get("status").asString()).as(first.toString()).isEqualTo("DONE");
        assertThat(model.calls("mindgraph/build"))
                .as("the shared graph needs no build")
                .isEmpty();
        int communities = events(first, "mindgraph.graph-communities")
                .getFirst()
                .get("communities")
                .asInt();
        assertThat(communities).isPositive();
        assertThat(model.calls("mindgraph/summary")).hasSize(communities);
        List<JsonNode> tools = events(first, "mindgraph.tool");
        assertThat(tools.get(0).get("result").asString())
                .startsWith("subgraph_id | title | impact | nodes")
                .contains("| 7.0 |");
        assertThat(tools.get(1).get("result").asString())
                .startsWith("Subgraph 1: ")
                .contains("Findings:\n- Ahab hunts the whale.");
        assertThat(first.get("citations").get(0).get("quote").asString()).isEqualTo("the white whale Moby Dick");

        model.reset();
        scriptSummaryWalk();
        JsonNode second = ask(whale, "What did Starbuck think of the hunt?", Map.of("graph", "shared"));

        assertThat(second.get("status").asString()).as(second.toString()).isEqualTo("DONE");
        assertThat(model.calls("mindgraph/summary"))
                .as("reports are cached per graph hash")
                .isEmpty();
        assertThat(events(second, "mindgraph.graph-communities")
                        .getFirst()
                        .get("cached")
                        .asBoolean())
                .isTrue();
        assertThat(events(second, "mindgraph.tool").get(1).get("result").asString())
                .contains("Findings:\n- Ahab hunts the whale.");
    }

    @Test
    void theRoundCapEndsTheToolLoopWithOneFinalCall() {
        model.on("mindgraph/answer")
                .onceCallTools("lookup_source", "{\"node_id\": \"ahab\"}")
                .onceCallTools("lookup_source", "{\"node_id\": \"whale\"}")
                .onceCallTools("lookup_source", "{\"node_id\": \"pequod\"}")
                .once("{\"answer\": \"the Pequod\", \"cited_nodes\": [\"pequod\"], \"confidence\": \"low\"}");

        JsonNode answer = ask(whale, "Which ship?", Map.of("graph", "shared", "maxRounds", 2));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(model.calls("mindgraph/answer")).hasSize(2);
        assertThat(model.calls("mindgraph/answer#final")).hasSize(1);
        assertThat(events(answer, "mindgraph.tool")).hasSize(2);
        assertThat(answer.get("answer").asString()).isEqualTo("the Pequod");
    }

    @Test
    void aBudgetTooSmallForTheWholeBuildAnswersFromThePartialGraphAndTheNextQuestionResumes() {
        scriptStoryBuild();
        model.on("mindgraph/answer")
                .reply("{\"answer\": \"Joe\", \"cited_nodes\": [\"joe\"], \"confidence\": \"high\"}");

        JsonNode limited = ask(story, "Who raised Pip?", Map.of("chunkTokens", 40, "budget", Map.of("maxCalls", 2)));

        assertThat(limited.get("status").asString()).as(limited.toString()).isEqualTo("DONE");
        assertThat(limited.get("budgetLimited").asBoolean()).isTrue();
        assertThat(model.calls("mindgraph/build"))
                .as("one block, then the last call is kept for answering")
                .hasSize(1);
        assertThat(model.calls("mindgraph/answer"))
                .as("no room for a tool round: one call over the graph, without tools, with the answer's reserve")
                .isEmpty();
        assertThat(model.calls("mindgraph/answer#final")).hasSize(1);
        assertThat(model.calls("mindgraph/answer#final")
                        .getFirst()
                        .messages()
                        .get(1)
                        .getText())
                .contains("3 nodes, 0 edges, built from 1 chunks")
                .contains("\"id\":\"joe\"")
                .doesNotContain("jaggers");
        assertThat(limited.get("answer").asString()).isEqualTo("Joe");
        assertThat(limited.get("citations").get(0).get("quote").asString())
                .isEqualTo("Joe Gargery, the village blacksmith");
        JsonNode stopped = events(limited, "mindgraph.graph-stopped").getFirst();
        assertThat(stopped.get("blocksBuilt").asInt()).isEqualTo(1);
        assertThat(stopped.get("blocks").asInt()).isEqualTo(3);
        assertThat(stopped.get("secondsLeft").asLong())
                .as("mindgraph's own default wall time, an hour, not the service's 10 minutes")
                .isGreaterThan(3000);
        assertThat(events(limited, "mindgraph.graph").getFirst().get("partial").asBoolean())
                .isTrue();
        assertThat(events(limited, "mindgraph.answer")
                        .getFirst()
                        .get("fromPartialGraph")
                        .asBoolean())
                .isTrue();

        JsonNode resumed = ask(story, "Who raised Pip?", Map.of("chunkTokens", 40));

        assertThat(resumed.get("budgetLimited").asBoolean()).isFalse();
        assertThat(model.calls("mindgraph/build"))
                .as("only blocks 2 and 3 are left")
                .hasSize(3);
        assertThat(events(resumed, "mindgraph.graph-build"))
                .extracting(b -> b.get("block").asInt())
                .containsExactly(2, 3);
        assertThat(events(resumed, "mindgraph.graph").getFirst().get("partial").asBoolean())
                .isFalse();
        assertThat(resumed.get("citations").get(0).get("quote").asString())
                .isEqualTo("Joe Gargery, the village blacksmith");
    }

    @Test
    void aQuestionAwareBuildStartsFromTheEmptyGraphAndStartsFromTheSharedOneOnlyWhenAsked() {
        model.on("mindgraph/build")
                .reply(ops(add(
                        "ahab_goal", "claim", "Ahab wants to kill the whale", "Captain Ahab hunted the white whale")));
        model.on("mindgraph/answer")
                .reply("{\"answer\": \"Moby Dick\", \"cited_nodes\": [\"ahab_goal\"], \"confidence\": \"high\"}");

        JsonNode empty = ask(whale, "What did Ahab hunt?", Map.of());

        assertThat(empty.get("status").asString()).as(empty.toString()).isEqualTo("DONE");
        assertThat(model.calls("mindgraph/build").getFirst().user())
                .contains("Graph so far:\n(empty)")
                .doesNotContain("\"id\":\"ahab\"");
        assertThat(events(empty, "mindgraph.graph-seed")).isEmpty();
        assertThat(events(empty, "mindgraph.graph").getFirst().get("nodes").asInt())
                .as("only what this question's build added")
                .isEqualTo(1);
        assertThat(events(empty, "mindgraph.graph").getFirst().has("seededFrom"))
                .isFalse();

        model.reset();
        model.on("mindgraph/build")
                .reply(ops(add(
                        "ahab_goal", "claim", "Ahab wants to kill the whale", "Captain Ahab hunted the white whale")));
        model.on("mindgraph/answer")
                .reply("{\"answer\": \"Moby Dick\", \"cited_nodes\": [\"ahab_goal\"], \"confidence\": \"high\"}");

        JsonNode seeded = ask(whale, "What did Ahab hunt?", Map.of("start", "shared"));

        assertThat(seeded.get("status").asString()).as(seeded.toString()).isEqualTo("DONE");
        assertThat(model.calls("mindgraph/build"))
                .as("a graph of its own, not the empty-start one of the same question")
                .hasSize(1);
        assertThat(model.calls("mindgraph/build").getFirst().user())
                .contains("\"id\":\"ahab\"")
                .contains("\"id\":\"starbuck\"");
        assertThat(events(seeded, "mindgraph.graph-seed")
                        .getFirst()
                        .get("nodes")
                        .asInt())
                .isEqualTo(5);
        assertThat(events(seeded, "mindgraph.graph").getFirst().get("nodes").asInt())
                .isEqualTo(6);
        assertThat(events(seeded, "mindgraph.graph")
                        .getFirst()
                        .get("seededFrom")
                        .asLong())
                .isPositive();

        Api.Response bad = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(whale),
                        "question",
                        "?",
                        "strategy",
                        "mindgraph",
                        "options",
                        Map.of("start", "somewhere")));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("field").asString()).isEqualTo("options.start");
    }

    @Test
    void anEditWithoutAQuoteKeepsTheOldSpanAndReAddingAnIdUpdatesIt() {
        model.on("mindgraph/build")
                .once(ops(
                        add("pip", "entity", "Pip, an orphan", "Pip was raised by his sister"),
                        add("joe", "entity", "Joe Gargery, blacksmith", "Joe Gargery, the village blacksmith"),
                        add("convict", "entity", "An escaped convict Pip meets", "an escaped convict")))
                .once(ops(
                        "{\"op\": \"edit_node\", \"id\": \"pip\", \"content\": \"Pip, an orphan with great expectations\"}",
                        "{\"op\": \"edit_node\", \"id\": \"joe\", \"content\": \"Joe Gargery, Pip's guardian\", \"src\": \"Joe was kind\"}",
                        add(
                                "convict",
                                "entity",
                                "The convict, whom Pip does not suspect",
                                "Pip believed the benefactor was Miss Havisham")))
                .once(ops());
        model.on("mindgraph/answer")
                .reply("{\"answer\": \"Joe\", \"cited_nodes\": [\"joe\"], \"confidence\": \"high\"}");

        JsonNode answer = ask(story, "Who looked after Pip as a child?", Map.of("chunkTokens", 40));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        JsonNode block2 = events(answer, "mindgraph.graph-build").get(1);
        assertThat(block2.get("rejected").size()).as(block2.toString()).isZero();
        assertThat(block2.get("applied").get("edit_node").asInt()).isEqualTo(2);
        assertThat(block2.get("applied").get("add_node").asInt()).isEqualTo(1);
        assertThat(block2.get("tolerated").get("edit-without-quote").asInt()).isEqualTo(1);
        assertThat(block2.get("tolerated").get("edit-quote-not-found").asInt()).isEqualTo(1);
        assertThat(block2.get("tolerated").get("add_node-existing-id").asInt()).isEqualTo(1);
        JsonNode graph = events(answer, "mindgraph.graph").getFirst().get("graph");
        assertThat(graph.get("nodes")).hasSize(3);
        JsonNode pip = node(graph, "pip");
        assertThat(pip.get("content").asString()).isEqualTo("Pip, an orphan with great expectations");
        assertThat(pip.get("quote").asString()).isEqualTo("Pip was raised by his sister");
        assertThat(pip.has("mergedSpans")).isFalse();
        assertThat(node(graph, "joe").get("content").asString()).isEqualTo("Joe Gargery, Pip's guardian");
        assertThat(node(graph, "joe").get("quote").asString()).isEqualTo("Joe Gargery, the village blacksmith");
        JsonNode convict = node(graph, "convict");
        assertThat(convict.get("content").asString()).isEqualTo("The convict, whom Pip does not suspect");
        assertThat(convict.get("quote").asString()).isEqualTo("an escaped convict");
        JsonNode merged = convict.get("mergedSpans").get(0);
        assertThat(STORY.substring(merged.get(0).asInt(), merged.get(1).asInt()))
                .isEqualTo("Pip believed the benefactor was Miss Havisham");
    }

    @Test
    void onlyConnectedNodesFormCommunitiesAndReportsKeepAtMostTenFindings() {
        model.on("mindgraph/build")
                .once(ops(
                        add("pip", "entity", "Pip", "Pip was raised by his sister"),
                        add("joe", "entity", "Joe Gargery", "Joe Gargery, the village blacksmith"),
                        add("convict", "entity", "A convict", "an escaped convict"),
                        add("jaggers", "entity", "Jaggers, a lawyer", "the lawyer Jaggers"),
                        add("magwitch", "entity", "Magwitch", "The convict Magwitch"),
                        edge("joe", "pip", "raises", "raised by his sister and her husband Joe Gargery"),
                        edge("convict", "pip", "meets", "he met an escaped convict")));
        StringBuilder findings = new StringBuilder();
        for (int i = 1; i <= 12; i++) {
            findings.append(i == 1 ? "" : ", ").append("\"Finding ").append(i).append(".\"");
        }
        model.on("mindgraph/summary")
                .reply("{\"title\": \"Pip's childhood\", \"rating\": 8, \"summary\": \"Who raised Pip.\", "
                        + "\"findings\": [" + findings + "]}");
        model.on("mindgraph/answer")
                .onceCallTools("subgraph_summary", "{\"mode\": \"index\"}")
                .onceCallTools("subgraph_summary", "{\"mode\": \"detail\", \"subgraph_id\": 1}")
                .once("{\"answer\": \"Joe\", \"cited_nodes\": [\"joe\"], \"confidence\": \"high\"}");

        JsonNode answer = ask(story, "Who raised Pip, and whom did he meet?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(model.calls("mindgraph/summary"))
                .as("one report: the two edgeless nodes are no community")
                .hasSize(1);
        assertThat(model.calls("mindgraph/summary").getFirst().system()).contains("between 5 and 10 specific findings");
        assertThat(model.calls("mindgraph/summary").getFirst().user())
                .contains("\"id\":\"pip\"")
                .doesNotContain("jaggers");
        List<JsonNode> tools = events(answer, "mindgraph.tool");
        assertThat(tools.get(0).get("result").asString())
                .contains("1 | Pip's childhood | 8.0 | 3")
                .contains("2 nodes without edges belong to no subgraph");
        String detail = tools.get(1).get("result").asString();
        assertThat(detail).contains("- Finding 10.").doesNotContain("Finding 11.");
        assertThat(events(answer, "llm.dropped")).isNotEmpty();
    }

    @Test
    void compactionIsTheFirstAnswerCallsInputOverTheDocumentBesideTheGraphOnlyFigure() {
        scriptStoryBuild();
        model.on("mindgraph/answer")
                .reply("{\"answer\": \"Magwitch\", \"cited_nodes\": [\"convict\"], \"confidence\": \"high\"}");

        JsonNode answer = ask(story, "Who turned out to be the benefactor?", Map.of("chunkTokens", 40));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        JsonNode compaction = events(answer, "mindgraph.compaction").getFirst();
        long logged = jdbc.sql(
                        "SELECT prompt_tokens FROM llm_call WHERE question_id = ? AND template = 'mindgraph/answer' ORDER BY id LIMIT 1")
                .param(UUID.fromString(answer.get("id").asString()))
                .query(Long.class)
                .single();
        assertThat(compaction.get("firstCallInputTokens").asLong()).isEqualTo(logged);
        int documentTokens = io.lorekeeper.text.TokenCounter.count(STORY);
        assertThat(compaction.get("documentTokens").asInt()).isEqualTo(documentTokens);
        assertThat(compaction.get("compaction").asDouble())
                .isCloseTo((double) logged / documentTokens, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(compaction.get("graphCompaction").asDouble())
                .as("the graph alone is a fraction of the first call's input")
                .isLessThan(compaction.get("compaction").asDouble());
        assertThat(compaction.get("documentId").asString()).isEqualTo(story.toString());
    }

    @Test
    void aBudgetThatEndsTheToolRoundsIsAnsweredByTheLastResortOverTheNodesLookedUp() {
        model.on("mindgraph/answer")
                .onceCallTools("lookup_source", "{\"node_id\": \"starbuck\"}")
                .onceCallTools("lookup_source", "{\"node_id\": \"ahab\"}")
                .reply("{\"answer\": \"never\", \"cited_nodes\": [], \"confidence\": \"high\"}");
        model.on("last-resort/answer").reply("Starbuck");

        // three calls: the last is kept for the answer, so the tool loop has two rounds
        JsonNode answer = ask(whale, "Who argued?", Map.of("graph", "shared", "budget", Map.of("maxCalls", 3)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("budgetLimited").asBoolean()).isTrue();
        assertThat(answer.get("answer").asString()).isEqualTo("Starbuck");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(0.2);
        assertThat(model.calls())
                .extracting(ScriptedChatModel.Call::template)
                .containsExactly("mindgraph/answer", "mindgraph/answer", "last-resort/answer");
        assertThat(events(answer, "step.budget").getFirst().get("round").asInt())
                .isEqualTo(2);
        assertThat(model.calls("last-resort/answer").getFirst().user())
                .as("the passages looked up, then the nodes")
                .contains("Starbuck, the first mate");
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .anyMatch(q -> q.contains("Starbuck"));
    }

    @Test
    void theSharedGraphIsServedWithSpansAndCommunities() {
        JsonNode graph = api.get("/v1/documents/" + whale + "/graph").json();

        assertThat(graph.get("status").asString()).isEqualTo("READY");
        assertThat(graph.get("nodes")).hasSize(5);
        assertThat(graph.get("edges")).hasSize(3);
        for (JsonNode n : graph.get("nodes")) {
            assertThat(WHALE.substring(n.get("start").asInt(), n.get("end").asInt()))
                    .isEqualTo(n.get("quote").asString());
        }
        assertThat(graph.get("communities")).isNotEmpty();
        int members = 0;
        for (JsonNode c : graph.get("communities")) {
            members += c.get("nodes").size();
        }
        assertThat(members).isEqualTo(5);
        assertThat(graph.get("rejected").get("unknown-id").asInt()).isEqualTo(1);

        assertThat(api.get("/v1/documents/" + UUID.randomUUID() + "/graph").status())
                .isEqualTo(404);
        UUID plain = api.ingest(Map.of("text", "Nothing to see here.", "profile", "retrieval-only"));
        Api.Response none = api.get("/v1/documents/" + plain + "/graph");
        assertThat(none.status()).isEqualTo(404);
        assertThat(none.body()).contains("no-graph");
    }

    @Test
    void theGraphStageBuildsASharedGraphAndExtendsItWithAppendedSessionsOnly() {
        model.on("mindgraph/build").reply(call -> {
            String user = call.user();
            String block = user.substring(user.indexOf("<block>\n") + 8, user.lastIndexOf("\n</block>"));
            String number = user.replaceAll("(?s).*Block (\\d+) of \\d+.*", "$1");
            String line =
                    block.lines().filter(l -> l.contains(": ")).findFirst().orElseThrow();
            return ops(add("turn_" + number, "event", "First turn of block " + number, line));
        });
        UUID chat = api.ingest(io.lorekeeper.support.TestDocuments.aConversation()
                .session(
                        "9:00 am on 2 March, 2024",
                        "Ines",
                        "I start at the Kestrel observatory on Monday.",
                        "Tomas",
                        "Good luck!")
                .build());
        assertThat(model.calls("mindgraph/build")).hasSize(1);
        JsonNode stage = null;
        for (JsonNode s : api.get("/v1/documents/" + chat).json().get("stages")) {
            if (s.get("name").asString().equals("graph")) {
                stage = s;
            }
        }
        assertThat(stage.get("status").asString()).isEqualTo("DONE");
        assertThat(stage.get("done").asInt())
                .isEqualTo(stage.get("total").asInt())
                .isEqualTo(1);

        Api.Response appended = api.post(
                "/v1/documents/" + chat + "/sessions",
                Map.of(
                        "sessions",
                        List.of(Map.of(
                                "dateTime",
                                "7:05 am on 6 April, 2024",
                                "turns",
                                List.of(Map.of("speaker", "Ines", "text", "Margit is closed until May."))))));
        assertThat(appended.status()).as(appended.body()).isEqualTo(202);
        api.awaitDocument(chat, "READY", java.time.Duration.ofMinutes(1));

        List<ScriptedChatModel.Call> builds = model.calls("mindgraph/build");
        assertThat(builds).as("only the appended text is built").hasSize(2);
        assertThat(builds.get(1).user())
                .contains("Block 2 of 2")
                .contains("Margit is closed until May.")
                .doesNotContain("Kestrel observatory on Monday.\n")
                .contains("\"id\":\"turn_1\"");
        JsonNode graph = api.get("/v1/documents/" + chat + "/graph").json();
        assertThat(graph.get("blocks").asInt()).isEqualTo(2);
        assertThat(graph.get("nodes"))
                .extracting(n -> n.get("quote").asString())
                .containsExactly(
                        "Ines: I start at the Kestrel observatory on Monday.", "Ines: Margit is closed until May.");
    }

    @Test
    void aBlockWhoseBuilderReplyStaysUnusableIsACountedGapOfTheGraphStageThatAReindexWithoutStagesFills() {
        java.util.concurrent.atomic.AtomicBoolean broken = new java.util.concurrent.atomic.AtomicBoolean(true);
        model.on("mindgraph/build").reply(call -> {
            if (broken.get()) {
                return "I could not find anything worth adding."; // and again when asked to repair it
            }
            String user = call.user();
            String block = user.substring(user.indexOf("<block>\n") + 8, user.lastIndexOf("\n</block>"));
            String line =
                    block.lines().filter(l -> l.contains(": ")).findFirst().orElseThrow();
            return ops(add("turn_1", "event", "The first turn", line));
        });
        UUID chat = api.ingest(io.lorekeeper.support.TestDocuments.aConversation()
                .session(
                        "9:00 am on 2 March, 2024",
                        "Ines",
                        "The Plover lighthouse was relit on Sunday.",
                        "Tomas",
                        "At last!")
                .build());

        JsonNode stage = graphStage(chat);
        assertThat(stage.get("status").asString())
                .as("an unusable block does not fail the stage: " + stage)
                .isEqualTo("DONE");
        assertThat(stage.get("failed").asInt()).isEqualTo(1);
        assertThat(stage.get("failures").get(0).asString())
                .startsWith("block 1 [")
                .contains("mindgraph/build");
        assertThat(model.calls("mindgraph/build")).hasSize(1);
        assertThat(model.calls("mindgraph/build#repair")).hasSize(1);
        assertThat(api.get("/v1/documents/" + chat + "/graph").json().get("nodes"))
                .isEmpty();

        broken.set(false);
        assertThat(api.post("/v1/documents/" + chat + "/reindex", Map.of()).status())
                .isEqualTo(202);
        long deadline = System.nanoTime() + java.time.Duration.ofMinutes(1).toNanos();
        while (!(graphStage(chat).get("status").asString().equals("DONE")
                && graphStage(chat).get("failed") == null)) {
            assertThat(System.nanoTime())
                    .as("gap not filled: " + graphStage(chat))
                    .isLessThan(deadline);
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }

        assertThat(model.calls("mindgraph/build"))
                .as("the skipped block, asked once more")
                .hasSize(2);
        assertThat(model.calls("mindgraph/build").get(1).user())
                .contains("Block 1 of 1")
                .contains("The Plover lighthouse was relit on Sunday.");
        JsonNode graph = api.get("/v1/documents/" + chat + "/graph").json();
        assertThat(graph.get("nodes"))
                .extracting(n -> n.get("quote").asString())
                .containsExactly("Ines: The Plover lighthouse was relit on Sunday.");
        assertThat(jdbc.sql("SELECT skipped_blocks::text FROM graph WHERE document_id = ? AND scope = ''")
                        .param(chat)
                        .query(String.class)
                        .single())
                .isEqualTo("[]");
    }

    private JsonNode graphStage(UUID document) {
        for (JsonNode s : api.get("/v1/documents/" + document).json().get("stages")) {
            if (s.get("name").asString().equals("graph")) {
                return s;
            }
        }
        throw new AssertionError("no graph stage");
    }

    @Test
    void aQuestionAwareBuildStartsFromTheSharedGraphAndLeavesItUntouched() {
        // Seeding from the document's shared graph is an option (start=shared); by default a build starts empty.
        long sharedId = store.shared(whale).orElseThrow().id();
        model.on("mindgraph/build")
                .reply(ops(
                        add("doubt", "claim", "Starbuck thinks the hunt is folly", "argued against the hunt"),
                        edge("doubt", "starbuck", "held_by", "Starbuck, the first mate, argued"),
                        "{\"op\": \"edit_node\", \"id\": \"ahab\", \"content\": \"Captain Ahab, obsessed with the whale\", "
                                + "\"src\": \"Captain Ahab hunted the white whale\"}"));
        model.on("mindgraph/answer")
                .reply(
                        "{\"answer\": \"Starbuck\", \"cited_nodes\": [\"doubt\", \"pequod\"], \"confidence\": \"high\"}");

        JsonNode answer = ask(whale, "Who doubted the hunt?", Map.of("start", "shared"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        // the builder saw the shared graph's nodes, not an empty graph
        List<ScriptedChatModel.Call> builds = model.calls("mindgraph/build");
        assertThat(builds).hasSize(1);
        assertThat(builds.getFirst().user())
                .contains("\"id\":\"starbuck\"")
                .contains("\"id\":\"pequod\"")
                .doesNotContain("Graph so far:\n(empty)");
        JsonNode seed = events(answer, "mindgraph.graph-seed").getFirst();
        assertThat(seed.get("sharedGraph").asLong()).isEqualTo(sharedId);
        assertThat(seed.get("nodes").asInt()).isEqualTo(5);
        assertThat(seed.get("edges").asInt()).isEqualTo(3);
        JsonNode graph = events(answer, "mindgraph.graph").getFirst();
        assertThat(graph.get("seededFrom").asLong()).isEqualTo(sharedId);
        assertThat(graph.get("nodes").asInt()).isEqualTo(6);
        assertThat(graph.get("edges").asInt()).isEqualTo(4);
        assertThat(node(graph.get("graph"), "ahab").get("content").asString())
                .isEqualTo("Captain Ahab, obsessed with the whale");
        // a seeded node and a new one are both cited at their exact spans
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .containsExactly("argued against the hunt", "the Pequod");
        for (JsonNode citation : answer.get("citations")) {
            assertThat(WHALE.substring(
                            citation.get("start").asInt(), citation.get("end").asInt()))
                    .isEqualTo(citation.get("quote").asString());
        }
        // the question's edits went into its own graph: the shared one is as the graph stage left it
        JsonNode shared = api.get("/v1/documents/" + whale + "/graph").json();
        assertThat(shared.get("nodes")).hasSize(5);
        assertThat(shared.get("edges")).hasSize(3);
        assertThat(node(shared, "ahab").get("content").asString()).isEqualTo("Captain Ahab");
        assertThat(node(shared, "doubt")).isNull();
    }

    @Test
    void unknownOptionsAreRefused() {
        Api.Response response = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(story),
                        "question",
                        "?",
                        "strategy",
                        "mindgraph",
                        "options",
                        Map.of("maxRound", 3)));
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("field").asString()).isEqualTo("options.maxRound");
    }

    /** Block 1 introduces pip, joe and the convict; block 2 adds Jaggers and a claim, with one bad quote and one unknown id; block 3 merges the convict with Magwitch and retracts the claim. */
    // ---------------------------------------------------------------- degraded steps and last resorts

    @Test
    void aBuildReplyCutAtTheOutputLimitKeepsItsCompleteEditsOrAddsNothingAndTheBuildGoesOn() {
        String pip = add("pip", "entity", "Pip, an orphan", "Pip was raised by his sister");
        String keepsPip = "{\"operations\": [" + pip + ", {\"op\": \"add_node\", \"id\": \"jo";
        String nothingComplete = "{\"operations\": [{\"op\": \"add_";
        model.on("mindgraph/build")
                .cutOnce(keepsPip)
                .cutOnce(keepsPip)
                .cutOnce(nothingComplete)
                .cutOnce(nothingComplete)
                .once(ops(add("magwitch", "entity", "Magwitch, the benefactor", "The convict Magwitch returned")));
        model.on("mindgraph/answer")
                .reply("{\"answer\": \"Magwitch\", \"cited_nodes\": [\"magwitch\"], \"confidence\": \"high\"}");

        JsonNode answer = ask(story, "Who was Pip's benefactor, read through cut replies?", Map.of("chunkTokens", 40));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Magwitch");
        assertThat(model.calls("mindgraph/build")).hasSize(5);
        assertThat(events(answer, "llm.truncated")).isNotEmpty();
        List<JsonNode> failed = events(answer, "step.failed");
        assertThat(failed).hasSize(1);
        assertThat(failed.getFirst().get("step").asString()).isEqualTo("build");
        assertThat(failed.getFirst().get("chunk").asInt()).as("the block").isEqualTo(2);
        JsonNode graph = events(answer, "mindgraph.graph").getFirst().get("graph");
        assertThat(node(graph, "pip"))
                .as("the complete edit of the cut reply was kept")
                .isNotNull();
        assertThat(node(graph, "magwitch")).isNotNull();
        assertThat(model.calls("mindgraph/build").getFirst().system()).contains("at most 40 operations");
    }

    @Test
    void anUnusableOrCutFinalReplyIsAnsweredByTheLastResortOverTheBestMatchingNodes() {
        model.on("mindgraph/answer").reply("{\"cited_nodes\": [\"starbuck\"]}");
        model.on("last-resort/answer").reply("Starbuck");

        JsonNode answer = ask(whale, "Who was the first mate?", Map.of("graph", "shared"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Starbuck");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(0.2);
        assertThat(events(answer, "step.failed").getFirst().get("step").asString())
                .isEqualTo("answer");
        JsonNode lastResort = events(answer, "step.last-resort").getFirst();
        assertThat(lastResort.get("retrieved").asBoolean())
                .as("the nodes are the evidence")
                .isFalse();
        String evidence = model.calls("last-resort/answer").getFirst().user();
        assertThat(evidence.indexOf("Starbuck, first mate"))
                .as("the node sharing most words with the question comes first")
                .isLessThan(evidence.indexOf("Captain Ahab"));
        assertThat(evidence).contains("\"Starbuck, the first mate\"");
        assertThat(answer.get("citations").get(0).get("quote").asString()).isEqualTo("Starbuck, the first mate");

        model.reset();
        String cut = "{\"answer\": \"Starb";
        model.on("mindgraph/answer").cutOnce(cut).cutOnce(cut);
        model.on("last-resort/answer").reply("Starbuck");

        JsonNode wasCut = ask(whale, "Who was the first mate?", Map.of("graph", "shared"));

        assertThat(wasCut.get("status").asString()).as(wasCut.toString()).isEqualTo("DONE");
        assertThat(wasCut.get("answer").asString()).isEqualTo("Starbuck");
        assertThat(events(wasCut, "llm.truncated")).isNotEmpty();
        assertThat(events(wasCut, "step.last-resort")).hasSize(1);
    }

    @Test
    void theDeadlinePassingDuringTheToolRoundsLeavesTheLastResort() {
        // the first round takes two of the question's three seconds: another would run into the time kept for the
        // answer
        model.on("mindgraph/answer")
                .delay(java.time.Duration.ofMillis(2000))
                .onceCallTools("lookup_source", "{\"node_id\": \"starbuck\"}")
                .reply("{\"answer\": \"never\", \"cited_nodes\": [], \"confidence\": \"high\"}");
        model.on("last-resort/answer").reply("Starbuck");

        JsonNode answer = ask(whale, "Who argued?", Map.of("graph", "shared", "budget", Map.of("maxSeconds", 3)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("budgetLimited").asBoolean()).isTrue();
        assertThat(answer.get("answer").asString()).isEqualTo("Starbuck");
        assertThat(model.calls("mindgraph/answer")).hasSize(1);
        JsonNode stop = events(answer, "step.budget").getFirst();
        assertThat(stop.get("reason").asString()).contains("wall time");
        assertThat(stop.get("round").asInt()).isEqualTo(1);
        assertThat(model.calls("last-resort/answer").getFirst().user())
                .as("the passage looked up")
                .contains("Starbuck, the first mate, argued against the hunt.");
    }

    @Test
    void anEmptyGraphStillGetsAnAnswerFromTheQuestionsBestPassages() {
        model.on("mindgraph/build").reply("{\"operations\": []}");
        model.on("mindgraph/answer").reply("{\"confidence\": \"low\"}");
        model.on("last-resort/answer").reply("Joe Gargery and Pip's sister");

        JsonNode answer = ask(story, "Who raised Pip, from an empty graph?", Map.of("chunkTokens", 40));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(events(answer, "mindgraph.graph").getFirst().get("nodes").asInt())
                .isZero();
        assertThat(answer.get("answer").asString()).isEqualTo("Joe Gargery and Pip's sister");
        assertThat(events(answer, "step.last-resort")
                        .getFirst()
                        .get("retrieved")
                        .asBoolean())
                .isTrue();
        assertThat(answer.get("citations")).isNotEmpty();
    }

    @Test
    void theAnswerPromptAsksForTheBestAnswerUnlessAbstainingIsAllowed() {
        model.on("mindgraph/answer")
                .reply("{\"answer\": \"the Pequod\", \"cited_nodes\": [\"pequod\"], \"confidence\": \"high\"}");

        ask(whale, "Which ship?", Map.of("graph", "shared"));
        assertThat(model.calls("mindgraph/answer").getLast().system())
                .doesNotContainIgnoringCase("not available")
                .doesNotContain("say so")
                .contains("Always give your best answer");

        ask(whale, "Which ship?", Map.of("graph", "shared", "abstain", true));
        assertThat(model.calls("mindgraph/answer").getLast().system()).contains("not available");
    }

    private void scriptStoryBuild() {
        model.on("mindgraph/build")
                .once(ops(
                        add("pip", "entity", "Pip, an orphan", "Pip was raised by his sister"),
                        add("joe", "entity", "Joe Gargery, blacksmith", "Joe Gargery, the village blacksmith"),
                        add("convict", "entity", "An escaped convict Pip meets", "an escaped convict")))
                .once(ops(
                        add("jaggers", "entity", "Jaggers, a lawyer", "the lawyer Jaggers"),
                        edge("jaggers", "pip", "informs", "the lawyer Jaggers told Pip"),
                        add(
                                "havisham_claim",
                                "claim",
                                "Pip thinks Miss Havisham is his benefactor",
                                "Pip believed the benefactor was Miss Havisham"),
                        add("estella", "entity", "Estella", "Estella broke his heart"),
                        edge("havisham", "pip", "benefactor_of", "the benefactor was Miss Havisham")))
                .once(ops(
                        "{\"op\": \"edit_node\", \"id\": \"convict\", \"content\": \"Magwitch, the escaped convict and Pip's secret benefactor\", "
                                + "\"src\": \"The convict Magwitch returned from New South Wales\"}",
                        edge("convict", "pip", "benefactor_of", "revealed that he was the benefactor"),
                        "{\"op\": \"delete_node\", \"id\": \"havisham_claim\"}"));
    }

    private void scriptSummaryWalk() {
        model.on("mindgraph/answer")
                .onceCallTools("subgraph_summary", "{\"mode\": \"index\"}")
                .onceCallTools("subgraph_summary", "{\"mode\": \"detail\", \"subgraph_id\": 1}")
                .once("{\"answer\": \"Moby Dick\", \"cited_nodes\": [\"whale\"], \"confidence\": \"high\"}");
    }

    private static String sharedWhaleGraph() {
        return ops(
                add("ahab", "entity", "Captain Ahab", "Captain Ahab"),
                add("whale", "entity", "Moby Dick, a white whale", "the white whale Moby Dick"),
                add("ishmael", "entity", "Ishmael, a sailor", "Ishmael sailed"),
                add("pequod", "entity", "The Pequod, a ship", "the Pequod"),
                add("starbuck", "entity", "Starbuck, first mate", "Starbuck, the first mate"),
                edge("ahab", "whale", "hunts", "Captain Ahab hunted the white whale"),
                edge("ishmael", "pequod", "sails_on", "Ishmael sailed with him on the Pequod"),
                edge("starbuck", "ahab", "opposes", "argued against the hunt"),
                edge("queequeg", "pequod", "sails_on", "the Pequod"));
    }

    static String ops(String... operations) {
        return "{\"operations\": [" + String.join(", ", operations) + "]}";
    }

    static String add(String id, String type, String content, String src) {
        return json(Map.of("op", "add_node", "id", id, "type", type, "content", content, "src", src));
    }

    static String edge(String source, String target, String relation, String src) {
        return json(Map.of("op", "add_edge", "source", source, "target", target, "relation", relation, "src", src));
    }

    private static String json(Map<String, String> fields) {
        return JsonMapper.builder().build().writeValueAsString(new HashMap<>(fields));
    }

    private static JsonNode node(JsonNode graph, String id) {
        for (JsonNode n : graph.get("nodes")) {
            if (n.get("id").asString().equals(id)) {
                return n;
            }
        }
        return null;
    }

    private JsonNode ask(UUID document, String question, Map<String, Object> options) {
        return api.ask(Map.of(
                "documentIds", List.of(document), "question", question, "strategy", "mindgraph", "options", options));
    }

    private List<JsonNode> events(JsonNode question, String type) {
        return api.traceEvents(question, type);
    }
}
