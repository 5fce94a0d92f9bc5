/**
 * The LLM gateway every generating strategy goes through. For now: whether an OpenAI-compatible
 * endpoint is configured at all, so that strategies needing one can be refused up front.
 */
package io.lorekeeper.llm;
