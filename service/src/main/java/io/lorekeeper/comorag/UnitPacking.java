package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.List;

import io.lorekeeper.comorag.ComoRagStore.ChunkRow;

/**
 * Veridical units from chunks: the paper indexes 512-token chunks, the service's chunks are about
 * half that, so a unit is a maximal run of consecutive chunks of one page within the token limit.
 * Built from whole chunks, a unit's span is exact and its chunks' embeddings can be reused; a page
 * boundary (a conversation session) always ends a unit.
 */
final class UnitPacking {

    private UnitPacking() {}

    static List<List<ChunkRow>> pack(List<ChunkRow> chunks, int maxTokens) {
        List<List<ChunkRow>> units = new ArrayList<>();
        List<ChunkRow> current = new ArrayList<>();
        int tokens = 0;
        for (ChunkRow chunk : chunks) {
            boolean samePage = !current.isEmpty()
                    && current.getLast().pageOrdinal() == chunk.pageOrdinal()
                    && current.getLast().ordinal() + 1 == chunk.ordinal();
            if (!current.isEmpty() && (!samePage || tokens + chunk.tokens() > maxTokens)) {
                units.add(List.copyOf(current));
                current.clear();
                tokens = 0;
            }
            current.add(chunk);
            tokens += chunk.tokens();
        }
        if (!current.isEmpty()) {
            units.add(List.copyOf(current));
        }
        return units;
    }
}
