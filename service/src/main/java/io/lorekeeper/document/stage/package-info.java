/**
 * The ingestion stage SPI, the named interface {@code document :: stage}: what another module implements to
 * build a memory while a document is ingested ({@link io.lorekeeper.document.stage.IngestionStage}, or
 * {@link io.lorekeeper.document.stage.EnrichmentStage} for one the document may be READY without), what a
 * running stage is given ({@link io.lorekeeper.document.stage.StageRun}) and where each stage runs
 * ({@link io.lorekeeper.document.stage.StageOrder}, the one list of positions). A module with a stage
 * declares {@code "document::stage"} among its allowed dependencies, so its stages depend on this API
 * and not on how the ingestion job runs them.
 */
@org.springframework.modulith.NamedInterface("stage")
package io.lorekeeper.document.stage;
