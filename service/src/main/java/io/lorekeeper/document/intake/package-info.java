/**
 * A new document in, inside the document module: a text, a conversation or an uploaded file validated
 * against the limits, rendered to the canonical text every offset points into
 * ({@link io.lorekeeper.document.intake.CanonicalText}), stored with what is recorded as spans of it
 * (conversation sessions and turns, an uploaded file and its pages and sections:
 * {@link io.lorekeeper.document.intake.CanonicalTexts}) or found already stored for the tenant, and its
 * ingestion job queued in the same transaction ({@link io.lorekeeper.document.intake.DocumentIntake});
 * sessions appended to a conversation ({@link io.lorekeeper.document.intake.SessionAppender}); reindex
 * and on-demand builds. Internal: the base package's controller, catalog and memory builds call it.
 */
package io.lorekeeper.document.intake;
