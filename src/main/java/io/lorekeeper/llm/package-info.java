/**
 * The LLM gateway every generating strategy and memory stage goes through: role-based routing to
 * model profiles, prompt templates, structured output with one repair, gateway-driven tool loops,
 * budgets, retries that honour Retry-After, per-profile limits, a persistent response cache, and a
 * record of every call.
 */
@io.lorekeeper.platform.OwnsTables({"llm_call", "llm_cache"})
package io.lorekeeper.llm;
