package io.lorekeeper.extractive;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The extractive strategy's defaults under {@code lorekeeper.extractive}.
 *
 * @param shortAnswerConfidence the least confidence a short answer needs to be given; below it the answer is
 *                              the best passages ({@code answerKind: passage}). 0.5, not tuned: a calibrated
 *                              confidence of at least a half says the short answer is more likely right than
 *                              wrong. Per question: option {@code shortAnswerConfidence} (0 gives a short answer
 *                              whenever one is found, 1 never)
 * @param passages              the most passages a passage answer quotes (5 with one sentence either side: about
 *                              330 words on the novels; 10 hold the answer more often and read twice as long)
 * @param passageSentences      sentences kept on each side of a passage's best sentence
 */
@ConfigurationProperties("lorekeeper.extractive")
record ExtractiveSettings(
        @DefaultValue("0.5") double shortAnswerConfidence,
        @DefaultValue("5") int passages,
        @DefaultValue("1") int passageSentences) {}
