package io.lorekeeper.evaluator;

import java.util.Map;

/**
 * A dataset's document as the service holds it, ingested once per run and shared by every question on it.
 *
 * @param id the document's id at the service
 * @param text the text the service extracted (what citations and context spans point into)
 * @param tokens the text's tokens, the denominator of compaction
 * @param turns a conversation's turns by turn id (where gold evidence names turns); empty for other documents
 */
record IngestedDocument(String id, String text, int tokens, Map<String, ServiceClient.TurnSpan> turns) {}
