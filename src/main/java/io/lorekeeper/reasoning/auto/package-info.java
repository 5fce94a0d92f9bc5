/**
 * The {@code auto} strategy: explicit, traced rules that pick one of the deployed strategies per
 * question from what is known before any model call.
 */
package io.lorekeeper.reasoning.auto;
