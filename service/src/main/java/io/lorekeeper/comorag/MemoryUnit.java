package io.lorekeeper.comorag;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One memory unit of the workspace: the probe that triggered a retrieval, the evidence one layer
 * returned for it, and the cue (key findings) on how that evidence bears on the question, with the
 * cue's embedding for Mem-Fuse's similarity ranking.
 */
record MemoryUnit(
        String id, int cycle, String probe, String layer, List<Evidence> evidence, String cue, float[] cueVector) {

    Map<String, Object> view() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("unit", id);
        out.put("cycle", cycle);
        out.put("probe", probe);
        out.put("layer", layer);
        out.put("evidence", evidence.stream().map(Evidence::id).toList());
        out.put("cue", cue);
        return out;
    }
}
