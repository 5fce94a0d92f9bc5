/**
 * Questions: the API to ask, the background job that runs a strategy, the stored answer with its
 * verified citations, and the trace streamed as progress.
 */
package io.lorekeeper.question;
