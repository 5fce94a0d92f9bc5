package io.lorekeeper.mindgraph;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.llm.Budget;
import io.lorekeeper.llm.CallScope;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.strategy.Trace;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.support.SharedData;
import io.lorekeeper.text.Blocks;
import io.lorekeeper.text.SentenceSplitter;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

/**
 * Measures MindGraph's compaction ratio (tokens of the first answer call's input, as the call log
 * records them, divided by the document's tokens; and the graph-only figure beside it) on the
 * novels in {@code ../shared/data/novels}: the build runs block by block
 * over each novel (8,192-token blocks) with a scripted builder that adds three nodes and two edges
 * per block, quoting the block's first sentences; then one answer call is made through the
 * gateway and its input is counted the way the scripted model counts usage. Run with
 * {@code -Dlorekeeper.measure.compaction=true}.
 */
@LlmIntegrationTest
@EnabledIfSystemProperty(
        named = "lorekeeper.measure.compaction",
        matches = "true",
        disabledReason =
                "opt-in measurement: run with -Dlorekeeper.measure.compaction=true (needs ../shared/data/novels)")
class CompactionMeasurementTest {

    @Autowired
    LlmGateway gateway;

    @Autowired
    ScriptedChatModel model;

    @Test
    void measureOnTheNovels() throws IOException {
        Path dir = SharedData.require("novels");
        List<Path> novels;
        try (var files = Files.list(dir)) {
            novels = files.filter(f -> f.toString().endsWith(".txt")).sorted().toList();
        }
        for (Path novel : novels) {
            String text = Files.readString(novel).replace("\r\n", "\n");
            model.reset();
            model.on("mindgraph/build").reply(CompactionMeasurementTest::fewNodes);
            model.on("mindgraph/answer").reply("{\"answer\": \"x\", \"cited_nodes\": [], \"confidence\": \"low\"}");
            LlmSession llm = gateway.open(CallScope.document(UUID.randomUUID(), null), Budget.unlimited());
            ConceptGraph graph = ConceptGraph.empty();
            List<Blocks.Block> blocks = Blocks.split(text, 0, 0, 8192);
            for (Blocks.Block block : blocks) {
                GraphBuilder.step(
                        llm,
                        graph,
                        text,
                        block,
                        blocks.size(),
                        "Who are the main characters and how do their fortunes change?");
            }
            GraphSet graphs = new GraphSet(List.of(new GraphSet.Part(
                    UUID.randomUUID(),
                    text,
                    new GraphBuilder.Built(0, graph, blocks.size(), Map.of(), false, null, blocks.size(), false))));
            GraphTools tools = new GraphTools(graphs, llm, null, 1000, 10, Trace.NONE);
            llm.withTools(
                    Role.ANSWERER,
                    MindGraphStrategy.TEMPLATE,
                    MindGraphStrategy.answerVariables(
                            "Who are the main characters and how do their fortunes change?", List.of(), graphs),
                    tools.tools(),
                    40,
                    MindGraphAnswer.class,
                    (r, t, a, res) -> {});
            // the paper's f1: the input tokens of the answerer's first call, as the call log records them
            long input = llm.calls().stream()
                    .filter(c -> c.role() == Role.ANSWERER && c.template().equals(MindGraphStrategy.TEMPLATE))
                    .findFirst()
                    .orElseThrow()
                    .promptTokens();
            int documentTokens = TokenCounter.count(text);
            int graphTokens = TokenCounter.count(graph.compactJson());
            System.out.printf(
                    "COMPACTION %s: document %d tokens, %d blocks, graph %d nodes %d edges (%d tokens of JSON, graph-only "
                            + "ratio %.4f), first answer-call input %d tokens, ratio %.4f%n",
                    novel.getFileName(),
                    documentTokens,
                    blocks.size(),
                    graph.nodeCount(),
                    graph.edgeCount(),
                    graphTokens,
                    (double) graphTokens / documentTokens,
                    input,
                    (double) input / documentTokens);
            assertThat(input).isGreaterThan(graphTokens);
            assertThat(graph.nodeCount()).isEqualTo(3 * blocks.size());
        }
    }

    /** Three nodes quoting the block's first three sentences (first eight words each), and two edges between them. */
    private static String fewNodes(ScriptedChatModel.Call call) {
        String user = call.user();
        int open = user.indexOf("<block>\n") + "<block>\n".length();
        String block = user.substring(open, user.lastIndexOf("\n</block>"));
        int number = Integer.parseInt(user.replaceAll("(?s).*Block (\\d+) of \\d+.*", "$1"));
        List<Span> sentences = SentenceSplitter.split(block);
        List<String> ops = new ArrayList<>();
        String[] types = {"entity", "event", "claim"};
        for (int i = 0; i < Math.min(3, sentences.size()); i++) {
            String sentence = sentences.get(i).of(block);
            String[] words = sentence.split("\\s+");
            String quote = String.join(" ", java.util.Arrays.copyOf(words, Math.min(8, words.length)));
            String summary = "Block " + number + " item " + i + ": "
                    + String.join(" ", java.util.Arrays.copyOf(words, Math.min(12, words.length)));
            ops.add(MindGraphStrategyTest.add("b" + number + "_" + i, types[i], summary, quote));
        }
        for (int i = 1; i < Math.min(3, sentences.size()); i++) {
            ops.add(MindGraphStrategyTest.edge(
                    "b" + number + "_0",
                    "b" + number + "_" + i,
                    "related_to",
                    sentences.get(i).of(block).split("\\s+")[0]));
        }
        return MindGraphStrategyTest.ops(ops.toArray(String[]::new));
    }
}
