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
 * @param reader                an extractive question-answering model that picks the short answer inside the
 *                              passages ({@link Reader}); off unless its folder is set
 */
@ConfigurationProperties("lorekeeper.extractive")
record ExtractiveSettings(
        @DefaultValue("0.5") double shortAnswerConfidence,
        @DefaultValue("5") int passages,
        @DefaultValue("1") int passageSentences,
        @DefaultValue Reader reader) {

    /**
     * An optional reader under {@code lorekeeper.extractive.reader}: a SQuAD-style ONNX model (start and end
     * logits per word piece) that reads the question with each of the best passages and picks the span that
     * answers; see {@link ReaderModel} and docs/strategies.md.
     *
     * @param location       the folder of an exported question-answering model (one {@code .onnx} file and
     *                       its {@code tokenizer.json}); empty, the default, leaves the reader off
     * @param passages       the best passages read with the question (each one pass of the model)
     * @param maxTokens      the model's window in word pieces, question and passage together (384, as SQuAD
     *                       models are trained; at most 512); a longer passage is cut at the end
     * @param maxAnswerPieces the longest span the reader may answer with, in word pieces (30, as in BERT's
     *                       SQuAD runs)
     * @param noAnswerMargin how far the best span's score (start plus end logit) must lead the no-answer score
     *                       (the [CLS] piece's start plus end logit, the least over the passages read) for the
     *                       span to be given; 0 as in SQuAD 2.0's default, higher withholds more
     */
    record Reader(
            String location,
            @DefaultValue("5") int passages,
            @DefaultValue("384") int maxTokens,
            @DefaultValue("30") int maxAnswerPieces,
            @DefaultValue("0") double noAnswerMargin) {

        boolean isOn() {
            return location != null && !location.isBlank();
        }
    }
}
