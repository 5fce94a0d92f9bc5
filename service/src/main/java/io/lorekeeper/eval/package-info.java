/**
 * Evaluations run by the service: {@code POST /v1/evaluations} starts a run as a db-scheduler job
 * that survives restarts, over the evaluator library ({@code io.lorekeeper.evaluator}: its dataset
 * loaders, metrics and runner, which talks to the service only through its HTTP API), with an
 * optional LLM judge that grades each answer through the gateway ({@code judge} role). The loaders,
 * metrics and the command line live in the evaluator module, not here.
 *
 * <p>Persistence: a run started over HTTP is the {@code Evaluation} aggregate (JPA, versioned),
 * whose methods make the legal state changes and refuse the others; the job and the HTTP intake
 * change it only through them, the intake together with scheduling the job in one transaction.
 * The per-question results ({@code evaluation_result}) are append-only rows written concurrently
 * and read back in bulk, so they stay plain SQL on {@code JdbcClient}.
 *
 * <p>Owns {@code evaluation} and {@code evaluation_result}.
 */
@io.lorekeeper.platform.OwnsTables({"evaluation", "evaluation_result"})
@org.springframework.modulith.ApplicationModule(
        allowedDependencies = {"evaluator", "llm", "platform", "retrieval", "strategy", "security"})
package io.lorekeeper.eval;
