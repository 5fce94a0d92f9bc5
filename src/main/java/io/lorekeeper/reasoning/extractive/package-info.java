/**
 * The {@code extractive} strategy: answers with verbatim sentences of the source, chosen by
 * hybrid retrieval, entity bridging and sentence scoring, with no LLM at all.
 */
package io.lorekeeper.reasoning.extractive;
