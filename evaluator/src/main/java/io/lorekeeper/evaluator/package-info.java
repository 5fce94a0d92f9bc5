/**
 * The evaluation harness as a library: dataset loaders (LoCoMo, HotpotQA distractor, LooGLE, the ComoRAG sample,
 * generic JSONL, synthetic RULER), metrics (LoCoMo token F1/EM, SQuAD F1/EM, ROUGE-L, choice accuracy, RULER string
 * match, evidence recall), the {@link io.lorekeeper.evaluator.EvalRunner} that talks to a Lorekeeper only through its
 * HTTP API ({@link io.lorekeeper.evaluator.ServiceClient}), and the {@link io.lorekeeper.evaluator.Report}. An LLM
 * judge is a {@link io.lorekeeper.evaluator.Grader} the caller supplies (the service grades with its gateway).
 * The command line is {@code io.lorekeeper.evaluator.cli}.
 *
 * <p>Its own artifact (lorekeeper-evaluator), on the service's class path because {@code POST /v1/evaluations} runs
 * it. It lies under {@code io.lorekeeper}, so the service's Spring Modulith verification sees it as the module
 * {@code evaluator}: it may depend on no other module (it must run without the service), and the service's
 * {@code eval} module declares its dependency on it. No Spring stereotype lives here, so the service's component
 * scan finds nothing in it.
 */
@org.springframework.modulith.ApplicationModule(allowedDependencies = {"text"})
package io.lorekeeper.evaluator;
