package io.lorekeeper.mindgraph;

import java.util.List;

import jakarta.validation.constraints.NotNull;

import io.lorekeeper.llm.SchemaEnum;

/**
 * The builder's reply for one block: graph edits, applied in order. Fields a given {@code op}
 * does not use stay empty; {@code src} is a verbatim quote from the block.
 */
record BuildReply(@NotNull List<Operation> operations) {

    /**
     * @param op       add_node, add_edge, edit_node or delete_node
     * @param id       the node's id (add_node, edit_node, delete_node)
     * @param type     entity, event, claim, concept or stat (add_node)
     * @param content  a short description (add_node; the new description for edit_node)
     * @param src      verbatim quote from the block (required for add_node, add_edge, edit_node)
     * @param source   edge origin id (add_edge)
     * @param target   edge target id (add_edge)
     * @param relation open-vocabulary relation label (add_edge)
     */
    record Operation(
            @SchemaEnum({"add_node", "add_edge", "edit_node", "delete_node"})
            String op,

            String id,

            @SchemaEnum({"entity", "event", "claim", "concept", "stat"})
            String type,

            String content,
            String src,
            String source,
            String target,
            String relation) {}
}
