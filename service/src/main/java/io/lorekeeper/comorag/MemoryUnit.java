package io.lorekeeper.comorag;

import java.util.List;

/**
 * One memory unit of the workspace: the probe that triggered a retrieval, the evidence one layer
 * returned for it, and the cue (key findings) on how that evidence bears on the question, with the
 * cue's embedding for Mem-Fuse's similarity ranking.
 */
record MemoryUnit(
        String id, int cycle, String probe, String layer, List<Evidence> evidence, String cue, float[] cueVector) {}
