/**
 * The {@link io.lorekeeper.document.lifecycle.Document} aggregate and the reads every concern shares,
 * inside the document module. A document with its ingestion stages is one aggregate (JPA, versioned;
 * the stages are child entities, so a change to either bumps the one version); its public methods make
 * the legal state changes (QUEUED, INGESTING, READY or FAILED; a stage's run from PENDING to RUNNING to
 * DONE or FAILED; rebuilds, resumption and appended sessions queueing it again) and refuse the others.
 * A request changes it under a row lock ({@link io.lorekeeper.document.lifecycle.DocumentChanges#lock}),
 * the ingestion job through {@link io.lorekeeper.document.lifecycle.DocumentChanges#change}, which
 * re-applies a change that lost a race on the fresh state. Document and stage rows are read as
 * {@link io.lorekeeper.document.DocumentInfo} and {@link io.lorekeeper.document.lifecycle.StageState}
 * ({@link io.lorekeeper.document.lifecycle.DocumentRows}), one mapper each. Internal: intake and ingestion
 * both move the aggregate, so it lives beside them rather than in the API, where its transitions would
 * be open to every module.
 */
package io.lorekeeper.document.lifecycle;
