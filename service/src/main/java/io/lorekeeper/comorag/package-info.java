/**
 * The {@code comorag} strategy (seed 001): a three-layer index built at ingestion (veridical
 * units with triples on an entity graph, a semantic layer of soft cluster summaries, an episodic
 * layer of sliding-window plot summaries) and a metacognitive loop per question that probes,
 * retrieves, encodes, fuses and tries to answer. Options: {@link io.lorekeeper.comorag.ComoRagOptions}.
 *
 * <p>Owns ComoRAG's layer tables; chunks are read through the document module's API.
 */
@io.lorekeeper.platform.OwnsTables({
    "comorag_unit",
    "comorag_triple",
    "comorag_summary",
    "comorag_graph",
    "comorag_entity"
})
@org.springframework.modulith.ApplicationModule(
        allowedDependencies = {
            "document",
            "document::search",
            "document::stage",
            "llm",
            "memory",
            "platform",
            "retrieval",
            "strategy",
            "text"
        })
package io.lorekeeper.comorag;
