/**
 * Text utilities shared by segmentation, retrieval and answering: sentence boundaries, token
 * counts and lexical normalisation. Pure functions, no Spring beans.
 *
 * <p>A closed module with no dependencies and no tables: every public type of this one flat
 * package is its API, so it needs no opening.
 */
@org.springframework.modulith.ApplicationModule(allowedDependencies = {})
package io.lorekeeper.text;
