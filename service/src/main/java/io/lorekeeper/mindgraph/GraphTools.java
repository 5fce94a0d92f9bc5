package io.lorekeeper.mindgraph;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.LlmTool;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.strategy.Trace;
import io.lorekeeper.text.Span;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The answer stage's two tools (seed 003, section 3.3): {@code lookup_source} reads the source
 * around a node's provenance; {@code subgraph_summary} navigates Leiden communities whose reports
 * the model writes on first use, stored per graph hash so later questions over the same graph
 * reuse them.
 */
final class GraphTools {

    static final String SUMMARY_TEMPLATE = "mindgraph/summary";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final GraphSet graphs;
    private final LlmSession llm;
    private final GraphStore store;
    private final int lookupChars;
    private final int maxClusterSize;
    private final Trace trace;
    /** Reports are stored per tenant: one tenant's graph must not be summarised from another's stored reports. */
    private final String owner;
    /** Passages read with lookup_source, by qualified node id. */
    private final Map<String, Span> lookedUp = new LinkedHashMap<>();

    private List<GraphStore.Report> reports;

    GraphTools(GraphSet graphs, LlmSession llm, GraphStore store, int lookupChars, int maxClusterSize, Trace trace) {
        this(graphs, llm, store, lookupChars, maxClusterSize, trace, null);
    }

    GraphTools(
            GraphSet graphs,
            LlmSession llm,
            GraphStore store,
            int lookupChars,
            int maxClusterSize,
            Trace trace,
            java.util.UUID tenantId) {
        this.owner = tenantId == null ? "" : tenantId + ":";
        this.graphs = graphs;
        this.llm = llm;
        this.store = store;
        this.lookupChars = lookupChars;
        this.maxClusterSize = maxClusterSize;
        this.trace = trace;
    }

    Map<String, Span> lookedUp() {
        return lookedUp;
    }

    List<LlmTool> tools() {
        return List.of(
                LlmTool.of(
                        "lookup_source",
                        "Read the original text a graph node was taken from: about " + lookupChars
                                + " characters of source around the node's quote. Use it to check a fact before relying on it.",
                        """
                {"type": "object", "properties": {"node_id": {"type": "string", "description": "id of the node to look up"}},
                 "required": ["node_id"]}""",
                        this::lookupSource),
                LlmTool.of(
                        "subgraph_summary",
                        "A map of the graph by densely connected subgraphs. mode=index lists every subgraph as "
                                + "(subgraph_id, title, impact rating, node count); mode=detail with a subgraph_id returns that "
                                + "subgraph's summary, findings and node ids. Useful when the graph is too large to survey node by node.",
                        """
                        {"type": "object", "properties": {"mode": {"type": "string", "enum": ["index", "detail"]},
                         "subgraph_id": {"type": "integer", "description": "required with mode=detail: an id from the index"}},
                         "required": ["mode"]}""",
                        this::subgraphSummary));
    }

    String lookupSource(String arguments) {
        JsonNode args = JSON.readTree(arguments == null || arguments.isBlank() ? "{}" : arguments);
        String id = args.path("node_id").asString("");
        GraphSet.Located node = graphs.find(id);
        if (node == null) {
            return "error: there is no node '" + id + "'";
        }
        String text = node.part().text();
        Span window = GraphSet.window(text, node.node().span(), lookupChars);
        lookedUp.put(node.qualifiedId(), window);
        return "Source of node " + node.qualifiedId() + " (" + node.node().type() + ": "
                + node.node().content() + "), characters " + window.start() + "-" + window.end() + ":\n<source>\n"
                + PromptMarkup.data(window.of(text)) + "\n</source>";
    }

    String subgraphSummary(String arguments) {
        JsonNode args = JSON.readTree(arguments == null || arguments.isBlank() ? "{}" : arguments);
        String mode = args.path("mode").asString("index");
        List<GraphStore.Report> all = reports();
        if (mode.equals("detail")) {
            if (!args.path("subgraph_id").isNumber()) {
                return "error: mode=detail needs a subgraph_id from the index";
            }
            int wanted = args.path("subgraph_id").asInt();
            return all.stream()
                    .filter(r -> r.community() == wanted)
                    .findFirst()
                    .map(r -> {
                        StringBuilder out = new StringBuilder();
                        out.append("Subgraph ")
                                .append(r.community())
                                .append(": ")
                                .append(r.title())
                                .append(" (impact ")
                                .append(r.rating())
                                .append(")\n")
                                .append(r.summary())
                                .append("\nFindings:\n");
                        r.findings().forEach(f -> out.append("- ").append(f).append('\n'));
                        out.append("Nodes: ").append(String.join(", ", r.nodeIds()));
                        return out.toString();
                    })
                    .orElse("error: there is no subgraph " + wanted + "; the index lists subgraphs 1 to " + all.size());
        }
        if (!mode.equals("index")) {
            return "error: mode must be index or detail";
        }
        StringBuilder out = new StringBuilder("subgraph_id | title | impact | nodes\n");
        for (GraphStore.Report r : all) {
            out.append(r.community())
                    .append(" | ")
                    .append(r.title())
                    .append(" | ")
                    .append(r.rating())
                    .append(" | ")
                    .append(r.nodeIds().size())
                    .append('\n');
        }
        int inSubgraphs = all.stream().mapToInt(r -> r.nodeIds().size()).sum();
        int edgeless = graphs.union().nodeCount() - inSubgraphs;
        if (edgeless > 0) {
            out.append(edgeless).append(" nodes without edges belong to no subgraph; read them in the graph itself.\n");
        }
        return out.toString();
    }

    /** The community reports of this graph: from the store, or written now (one call per community) and stored. */
    private List<GraphStore.Report> reports() {
        if (reports != null) {
            return reports;
        }
        ConceptGraph union = graphs.union();
        String hash = owner + union.hash() + ":" + maxClusterSize;
        List<GraphStore.Report> stored = store.reports(hash);
        List<Communities.Community> communities = Communities.detect(union, maxClusterSize);
        if (stored.size() == communities.size()) {
            trace.record(new MindGraphEvent.GraphCommunities(hash, communities.size(), true, null));
            reports = stored;
            return reports;
        }
        List<GraphStore.Report> written = new ArrayList<>();
        for (Communities.Community c : communities) {
            GraphStore.Report cached = stored.stream()
                    .filter(r -> r.community() == c.id())
                    .findFirst()
                    .orElse(null);
            if (cached != null) {
                written.add(cached);
                continue;
            }
            CommunityReport report = llm.structured(
                    Role.RESEARCHER,
                    SUMMARY_TEMPLATE,
                    Map.of("subgraph", subgraphJson(union, c)),
                    CommunityReport.class);
            GraphStore.Report r = new GraphStore.Report(
                    c.id(),
                    c.nodeIds(),
                    report.title().strip(),
                    report.rating(),
                    report.summary().strip(),
                    report.findings());
            store.saveReport(hash, r);
            written.add(r);
        }
        List<Integer> sizes = communities.stream().map(c -> c.nodeIds().size()).toList();
        trace.record(new MindGraphEvent.GraphCommunities(hash, communities.size(), false, sizes));
        reports = written;
        return reports;
    }

    private static String subgraphJson(ConceptGraph union, Communities.Community c) {
        java.util.Set<String> members = new java.util.HashSet<>(c.nodeIds());
        List<ConceptGraph.Node> nodes =
                union.nodes().stream().filter(n -> members.contains(n.id())).toList();
        List<ConceptGraph.Edge> edges = union.edges().stream()
                .filter(e -> members.contains(e.source()) || members.contains(e.target()))
                .toList();
        return ConceptGraph.of(nodes, List.of())
                .compactJson()
                .replace(
                        "\"edges\":[]",
                        "\"edges\":"
                                + JSON.writeValueAsString(edges.stream()
                                        .map(e -> Map.of(
                                                "source", e.source(), "target", e.target(), "relation", e.relation()))
                                        .toList()));
    }
}
