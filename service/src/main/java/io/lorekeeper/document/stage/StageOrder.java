package io.lorekeeper.document.stage;

/**
 * Where each ingestion stage runs, in one list: a stage reads only what stages at lower positions
 * wrote. The gaps leave room for a new stage between two others; a new stage adds its constant here.
 */
public final class StageOrder {

    /** Chunks and pages from the canonical text ({@code segment}). */
    public static final int SEGMENT = 10;
    /** Chunk embeddings ({@code embed}): after the chunks. */
    public static final int EMBED = 20;
    /** Sentence vectors ({@code sentences}): after the chunks they split. */
    public static final int SENTENCES = 25;
    /** GAM's memos, one per page ({@code memos}). */
    public static final int MEMOS = 30;
    /** Page headers ({@code page-headers}): after the memos of the pages they head. */
    public static final int PAGE_HEADERS = 40;
    /** MindGraph's shared graph ({@code graph}). */
    public static final int GRAPH = 50;
    /** ComoRAG's veridical units ({@code veridical}). */
    public static final int COMORAG_VERIDICAL = 60;
    /** ComoRAG's triples over the veridical units ({@code triples}). */
    public static final int COMORAG_TRIPLES = 65;
    /** ComoRAG's semantic cluster summaries ({@code semantic}). */
    public static final int COMORAG_SEMANTIC = 70;
    /** ComoRAG's episodic summaries ({@code episodic}). */
    public static final int COMORAG_EPISODIC = 75;

    private StageOrder() {}
}
