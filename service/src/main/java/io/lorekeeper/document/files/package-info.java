/**
 * Uploaded files to text, inside the document module: the format detected, the file extracted by Tika in
 * a process of its own ({@link io.lorekeeper.document.files.FileExtractor} →
 * {@link io.lorekeeper.document.files.ExtractionProcess} → {@link io.lorekeeper.document.files.ExtractionWorker},
 * over {@link io.lorekeeper.document.files.ExtractionWire}), its pages and headings kept as sections, hostile
 * files refused ({@link io.lorekeeper.document.files.RepeatedParts}), the file's name made safe to show. An
 * internal package: only the document module's base package uses it.
 */
package io.lorekeeper.document.files;
