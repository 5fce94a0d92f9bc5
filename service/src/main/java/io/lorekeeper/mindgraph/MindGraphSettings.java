package io.lorekeeper.mindgraph;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * MindGraph's defaults under {@code lorekeeper.mindgraph} (each overridable per question through
 * options): the paper's 8,192-token build blocks and 40 answer rounds.
 *
 * @param chunkTokens    the most tokens in one build block
 * @param maxRounds      tool-calling rounds of the answer stage
 * @param ingest         whether the {@code graph} ingestion stage builds a question-agnostic graph
 * @param lookupChars    characters of source {@code lookup_source} returns around a node's span
 * @param maxClusterSize the largest Leiden community; larger ones are split
 * @param wallTime       a mindgraph question's default wall time: a question-aware build reads the whole
 *                       document, one builder call per block (58 calls for a 470K-token book), and a
 *                       reasoning model may take a minute per call
 * @param answerReserve  the share of the question's budget (calls, tokens, time) the build leaves for the
 *                       answer stage; a build that reaches it stops and the question is answered from the graph so far
 */
@ConfigurationProperties("lorekeeper.mindgraph")
record MindGraphSettings(
        @DefaultValue("8192") int chunkTokens,
        @DefaultValue("40") int maxRounds,
        @DefaultValue("true") boolean ingest,
        @DefaultValue("1000") int lookupChars,
        @DefaultValue("10") int maxClusterSize,
        @DefaultValue("60m") java.time.Duration wallTime,
        @DefaultValue("0.2") double answerReserve) {}
