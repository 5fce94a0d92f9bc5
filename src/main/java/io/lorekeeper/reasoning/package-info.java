/**
 * How questions get answered: the {@link io.lorekeeper.reasoning.AnswerStrategy} SPI, one
 * sub-package per strategy, and the citation check every strategy's output passes through.
 */
package io.lorekeeper.reasoning;
