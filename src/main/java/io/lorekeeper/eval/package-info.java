/**
 * The evaluation harness: dataset loaders (LoCoMo, HotpotQA distractor, LooGLE, the ComoRAG sample,
 * generic JSONL), metrics (LoCoMo token F1/EM, SQuAD F1/EM, ROUGE-L, choice accuracy, RULER string
 * match, evidence recall), and a runner that talks to the service only through its HTTP API, so it
 * can evaluate this process or a remote deployment, and an optional LLM judge that grades each
 * answer through the gateway ({@code judge} role). Entry points: the {@code eval} profile (command
 * line) and {@code POST /v1/evaluations}, which runs as a db-scheduler job that survives restarts.
 */
package io.lorekeeper.eval;
