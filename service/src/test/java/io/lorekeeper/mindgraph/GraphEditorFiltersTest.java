package io.lorekeeper.mindgraph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.lorekeeper.mindgraph.BuildReply.Operation;
import io.lorekeeper.text.Blocks;

/**
 * Which graph edits the builder's reply may make, one refusal at a time, without a model or a
 * database: each missing field, a blank one, an unknown id on either end of an edge, an op in any
 * case; what a refused edit leaves in the graph; and how a whole unusable reply is counted. Also how
 * the communities of the graph they build are numbered.
 */
class GraphEditorFiltersTest {

    private static final String TEXT = "Pip met the convict Magwitch on the marshes. Joe was a blacksmith.";
    private static final Blocks.Block BLOCK = new Blocks.Block(0, 0, TEXT.length());

    private static Operation op(String op, String id, String type, String content, String src) {
        return new Operation(op, id, type, content, src, null, null, null);
    }

    private static Operation edge(String source, String target, String relation, String src) {
        return new Operation("add_edge", null, null, null, src, source, target, relation);
    }

    /** A graph holding pip and magwitch. */
    private static ConceptGraph graph() {
        ConceptGraph graph = ConceptGraph.empty();
        GraphEditor.Report report = GraphEditor.apply(
                graph,
                List.of(
                        op("add_node", "pip", "entity", "Pip", "Pip met"),
                        op("add_node", "magwitch", "entity", "a convict", "the convict Magwitch")),
                TEXT,
                BLOCK);
        assertThat(report.appliedTotal()).isEqualTo(2);
        assertThat(report.rejectedTotal()).isZero();
        return graph;
    }

    private static GraphEditor.Report apply(ConceptGraph graph, Operation... operations) {
        return GraphEditor.apply(graph, new ArrayList<>(Arrays.asList(operations)), TEXT, BLOCK);
    }

    private static String refusal(ConceptGraph graph, Operation operation) {
        GraphEditor.Report report = apply(graph, operation);
        assertThat(report.appliedTotal()).as("refused: nothing applied").isZero();
        assertThat(report.rejections()).hasSize(1);
        return report.rejections().getFirst().reason();
    }

    @Test
    void anAddNodeNeedsAnIdContentAKnownTypeAndAQuoteOfTheBlock() {
        ConceptGraph graph = graph();
        assertThat(refusal(graph, op("add_node", null, "entity", "Joe", "Joe was")))
                .isEqualTo("missing-field");
        assertThat(refusal(graph, op("add_node", "  ", "entity", "Joe", "Joe was")))
                .isEqualTo("missing-field");
        assertThat(refusal(graph, op("add_node", "joe", "entity", null, "Joe was")))
                .isEqualTo("missing-field");
        assertThat(refusal(graph, op("add_node", "joe", "entity", " ", "Joe was")))
                .isEqualTo("missing-field");
        assertThat(refusal(graph, op("add_node", "joe", null, "Joe", "Joe was")))
                .isEqualTo("bad-type");
        assertThat(refusal(graph, op("add_node", "joe", "entity", "Joe", "a quote from elsewhere entirely")))
                .isEqualTo("quote-not-found");
        assertThat(graph.has("joe")).isFalse();

        GraphEditor.Report added = apply(graph, op(" ADD_Node ", " joe ", " Entity ", " Joe, the smith ", "Joe was"));
        assertThat(added.applied()).containsEntry("add_node", 1);
        ConceptGraph.Node joe = graph.node("joe");
        assertThat(joe.type()).isEqualTo("entity");
        assertThat(joe.content()).isEqualTo("Joe, the smith");
        assertThat(joe.span().of(TEXT)).isEqualTo("Joe was");
        assertThat(added.quoteMethods()).containsEntry("exact", 1);
    }

    @Test
    void anAddEdgeNeedsBothEndsKnownARelationAndAQuote() {
        ConceptGraph graph = graph();
        assertThat(refusal(graph, edge(null, "pip", "met", "Pip met"))).isEqualTo("missing-field");
        assertThat(refusal(graph, edge("magwitch", " ", "met", "Pip met"))).isEqualTo("missing-field");
        assertThat(refusal(graph, edge("magwitch", "pip", null, "Pip met"))).isEqualTo("missing-field");
        assertThat(refusal(graph, edge("magwitch", "pip", " ", "Pip met"))).isEqualTo("missing-field");
        assertThat(refusal(graph, edge("ghost", "pip", "met", "Pip met"))).isEqualTo("unknown-id");
        assertThat(refusal(graph, edge("magwitch", "ghost", "met", "Pip met"))).isEqualTo("unknown-id");
        assertThat(refusal(graph, edge("magwitch", "pip", "met", "words not in the text at all")))
                .isEqualTo("quote-not-found");
        assertThat(graph.edgeCount()).isZero();

        GraphEditor.Report added = apply(graph, edge(" magwitch ", "pip", " met ", "Pip met the convict"));
        assertThat(added.applied()).containsEntry("add_edge", 1);
        assertThat(graph.edges()).singleElement().satisfies(e -> {
            assertThat(e.source()).isEqualTo("magwitch");
            assertThat(e.target()).isEqualTo("pip");
            assertThat(e.relation()).isEqualTo("met");
        });
    }

    @Test
    void anEditOrDeleteNeedsAnIdOfTheGraph() {
        ConceptGraph graph = graph();
        assertThat(refusal(graph, op("edit_node", null, null, "x", null))).isEqualTo("missing-field");
        assertThat(refusal(graph, op("edit_node", "ghost", null, "x", null))).isEqualTo("unknown-id");
        assertThat(refusal(graph, op("delete_node", " ", null, null, null))).isEqualTo("missing-field");
        assertThat(refusal(graph, op("delete_node", "ghost", null, null, null))).isEqualTo("unknown-id");
        assertThat(refusal(graph, null)).isEqualTo("unknown-op");
        assertThat(refusal(graph, op(null, "pip", null, null, null))).isEqualTo("unknown-op");
        assertThat(graph.nodeCount()).isEqualTo(2);

        GraphEditor.Report deleted = apply(graph, op("Delete_Node", "pip", null, null, null));
        assertThat(deleted.applied()).containsEntry("delete_node", 1);
        assertThat(graph.has("pip")).isFalse();
    }

    @Test
    void anEditWithoutAQuoteOrWithOneNotInTheBlockKeepsTheSpanAndIsCountedAsTolerated() {
        ConceptGraph graph = graph();
        GraphEditor.Report report = apply(
                graph,
                op("edit_node", "pip", null, "Pip, a boy", null),
                op("edit_node", "pip", null, "Pip, an orphan", "words from another block"),
                op("add_node", "magwitch", "entity", "Magwitch, the convict", "on the marshes"));
        assertThat(report.applied()).containsEntry("edit_node", 2).containsEntry("add_node", 1);
        assertThat(report.tolerated())
                .containsEntry("edit-without-quote", 1)
                .containsEntry("edit-quote-not-found", 1)
                .containsEntry("add_node-existing-id", 1);
        assertThat(graph.node("pip").content()).isEqualTo("Pip, an orphan");
        assertThat(graph.node("pip").span().of(TEXT)).isEqualTo("Pip met");
        assertThat(graph.node("pip").merged()).isEmpty();
        assertThat(graph.node("magwitch").content()).isEqualTo("Magwitch, the convict");
        assertThat(graph.node("magwitch").merged()).extracting(s -> s.of(TEXT)).containsExactly("on the marshes");
    }

    @Test
    void eachRejectionNamesItsOpAndIdAndAWholeReplyRefusedCountsAsOne() {
        ConceptGraph graph = graph();
        GraphEditor.Report report = apply(
                graph, op("delete_node", "ghost", null, null, null), edge("ghost", "pip", "met", "Pip met"), null);
        assertThat(report.rejections())
                .containsExactly(
                        new MindGraphEvent.Rejection("delete_node", "ghost", "unknown-id", null),
                        new MindGraphEvent.Rejection("add_edge", "ghost", "unknown-id", null),
                        new MindGraphEvent.Rejection("?", "", "unknown-op", null));
        assertThat(report.rejectedTotal()).isEqualTo(3);
        assertThat(report.rejected()).containsEntry("unknown-id", 2).containsEntry("unknown-op", 1);
        assertThat(apply(graph, edge(null, null, "met", "Pip met"))
                        .rejections()
                        .getFirst()
                        .id())
                .as("neither id nor source")
                .isEmpty();

        GraphEditor.Report unusable = report.withRejection("unusable-reply", null);
        assertThat(unusable.rejectedTotal()).isEqualTo(4);
        assertThat(unusable.rejected()).containsEntry("unusable-reply", 1);
        assertThat(unusable.rejections().getLast())
                .isEqualTo(new MindGraphEvent.Rejection(null, null, "unusable-reply", ""));
        assertThat(report.withRejection("cut", "at 4096 tokens")
                        .rejections()
                        .getLast()
                        .detail())
                .isEqualTo("at 4096 tokens");
        assertThat(report.rejectedTotal()).as("the report itself is unchanged").isEqualTo(3);
        assertThat(GraphEditor.apply(graph, null, TEXT, BLOCK).appliedTotal()).isZero();
    }

    @Test
    void communitiesAreNumberedFromOneInTheOrderTheyAreFound() {
        ConceptGraph graph = GraphUnitTest.cliques(3, 6);
        List<Communities.Community> communities = Communities.detect(graph, 10);
        assertThat(communities).extracting(Communities.Community::id).containsExactly(1, 2, 3);
        assertThat(communities)
                .extracting(c -> c.nodeIds().stream()
                        .map(id -> id.substring(0, 2))
                        .distinct()
                        .count())
                .as("each clique is one community")
                .containsOnly(1L);
    }
}
