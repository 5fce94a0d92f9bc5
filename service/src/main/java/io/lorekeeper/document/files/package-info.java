/**
 * Uploaded files to text, inside the document module: the format detected, the file extracted by Tika in
 * a process of its own ({@link io.lorekeeper.document.files.FileExtractor} →
 * {@link io.lorekeeper.document.files.ExtractionProcess} → {@link io.lorekeeper.document.files.ExtractionWorker},
 * over {@link io.lorekeeper.document.files.ExtractionWire}), its pages and headings kept as sections, hostile
 * files refused ({@link io.lorekeeper.document.files.RepeatedParts}), the file's name made safe to show. An
 * internal package: the document module's base package (the controller, the upload filter, the entry point of
 * {@code main}) and its intake use it.
 */
package io.lorekeeper.document.files;
