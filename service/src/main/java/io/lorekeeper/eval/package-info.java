/**
 * The evaluation harness: dataset loaders (LoCoMo, HotpotQA distractor, LooGLE, the ComoRAG sample,
 * generic JSONL), metrics (LoCoMo token F1/EM, SQuAD F1/EM, ROUGE-L, choice accuracy, RULER string
 * match, evidence recall), and a runner that talks to the service only through its HTTP API, so it
 * can evaluate this process or a remote deployment, and an optional LLM judge that grades each
 * answer through the gateway ({@code judge} role). Entry points: the {@code eval} profile (command
 * line) and {@code POST /v1/evaluations}, which runs as a db-scheduler job that survives restarts.
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
        allowedDependencies = {"llm", "platform", "strategy", "security", "text"})
package io.lorekeeper.eval;
