/**
 * The LLM gateway every generating strategy and memory stage goes through: role-based routing to
 * model profiles, prompt templates, structured output with one repair, gateway-driven tool loops,
 * budgets, retries that honour Retry-After, per-profile limits, a persistent response cache, and a
 * record of every call.
 *
 * <p>Owns the call log ({@code llm_call}) and the response cache ({@code llm_cache}); the tenancy
 * module reads a tenant's token spend and forgets its rows through {@code TenantCalls}.
 */
@io.lorekeeper.platform.OwnsTables({"llm_call", "llm_cache"})
@org.springframework.modulith.ApplicationModule(allowedDependencies = {"platform", "security", "text"})
package io.lorekeeper.llm;
