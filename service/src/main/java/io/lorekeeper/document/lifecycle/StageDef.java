package io.lorekeeper.document.lifecycle;

/** A stage as the document records it: its name and whether it builds retrieval or an enrichment. */
public record StageDef(String name, boolean enrichment) {
    String kind() {
        return enrichment ? "enrichment" : "retrieval";
    }
}
