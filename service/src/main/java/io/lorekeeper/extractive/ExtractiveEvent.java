package io.lorekeeper.extractive;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeName;

import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * What the model-free {@code extractive} strategy records: the chunks it retrieved, the sentences it
 * scored, and how the answer was cut out of the best one.
 */
sealed interface ExtractiveEvent extends TraceEvent {

    /**
     * Chunks found by one search whose sentences are scored: the question's hybrid search, the
     * keyword and vector searches that widen recall below it ({@code vectorHits} those only the
     * embedding found), or the question with one choice. Hits already found are not repeated.
     */
    @JsonTypeName("extractive.retrieve")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ExtractiveRetrieve")
    record Retrieve(String query, String mode, List<Hit> hits, List<Hit> vectorHits) implements ExtractiveEvent {}

    /** One chunk found. */
    @Schema(name = "ExtractiveHit")
    record Hit(UUID documentId, int chunk, int start, int end, double score) {}

    /**
     * A bridging hop: names the best hits mention but the question does not, searched with the
     * question to reach two-hop evidence; none ends the bridging.
     */
    @JsonTypeName("extractive.bridge")
    @Schema(name = "ExtractiveBridge")
    record Bridge(int hop, List<String> entities, List<Hit> newHits) implements ExtractiveEvent {}

    /**
     * The retrieved chunks' sentences, scored for the question: the answer type looked for, how many
     * sentence vectors came from the sentences memory and how many were embedded now, and the best.
     */
    @JsonTypeName("extractive.sentences")
    @Schema(name = "ExtractiveSentences")
    record Sentences(String answerType, int candidates, int storedVectors, int embeddedVectors, List<Scored> top)
            implements ExtractiveEvent {}

    /** One scored sentence, with the parts of its score. */
    @Schema(name = "ExtractiveScoredSentence")
    record Scored(
            int start,
            int end,
            double score,
            double semantic,
            double lexical,
            double prior,
            boolean typeMatch,
            String text) {}

    /** Nothing was retrieved: there is no sentence to answer from, so the answer is empty. */
    @JsonTypeName("extractive.unanswered")
    @Schema(name = "ExtractiveUnanswered")
    record Unanswered(String reason) implements ExtractiveEvent {}

    /** A second hop: the best sentence names a bridge whose own sentence ({@code evidence}) holds the answer. */
    @JsonTypeName("extractive.hop")
    @Schema(name = "ExtractiveHop")
    record Hop(String bridge, String evidence) implements ExtractiveEvent {}

    /**
     * Every piece of the best sentences that could have answered, with the features {@code SpanRanker}
     * scored it on ({@code chosen}: the one that won), so that an evaluation can fit the ranker's
     * weights on some questions and test them on others. {@code answered}: whether the answer is that
     * piece (false when a list of several sentences' pieces answered instead).
     */
    @JsonTypeName("extractive.candidates")
    @Schema(name = "ExtractiveCandidates")
    record Candidates(List<Piece> candidates, int chosen, boolean answered) implements ExtractiveEvent {}

    /** One piece that could have answered. */
    @Schema(name = "ExtractivePiece")
    record Piece(String text, String source, double score, Map<String, Double> features) {}

    /**
     * Where the short answer came from: its kind, the span inside the sentence (absolute offsets), the
     * span's text, and whether the answer was rewritten from it ({@code derived}).
     */
    @JsonTypeName("extractive.span")
    @Schema(name = "ExtractiveSpan")
    record Span(String kind, String answer, int start, int end, String source, boolean derived, String sentence)
            implements ExtractiveEvent {}

    /** The question asks for several things: the answer lists items from this many sentences. */
    @JsonTypeName("extractive.list")
    @Schema(name = "ExtractiveList")
    record Listed(String items, int sentences) implements ExtractiveEvent {}

    /**
     * A multiple-choice question: how well the evidence supports each choice, the index chosen, and the
     * sentence that decided it.
     */
    @JsonTypeName("extractive.choices")
    @Schema(name = "ExtractiveChoices")
    record Choices(Map<String, Double> supports, int chosen, String evidence) implements ExtractiveEvent {}

    /**
     * A question naming its own alternatives ("who is older, A or B?"): decided by the year each
     * alternative's sentence gives ({@code years}) or, without both years, by the evidence
     * ({@code evidence}).
     */
    @JsonTypeName("extractive.alternatives")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ExtractiveAlternatives")
    record Alternatives(List<String> alternatives, List<Integer> years, String chosen, String evidence)
            implements ExtractiveEvent {}

    /**
     * The short answer found, with its confidence and the features it was computed from, so that a fit
     * of the confidence model can read them from traces. When an {@code extractive.passages} event
     * follows, it was withheld as not certain enough.
     */
    @JsonTypeName("extractive.answer")
    @Schema(name = "ExtractiveAnswer")
    record Answer(String answer, double confidence, int citations, Map<String, Double> confidenceFeatures)
            implements ExtractiveEvent {}

    /**
     * The answer is the best passages ({@code answerKind: passage}): the answer the rules found
     * ({@code withheld}, with {@code withheldConfidence}) was a whole sentence, or not certain enough to give. The
     * confidence is that the passages hold what was asked, computed from {@code passageFeatures}.
     */
    @JsonTypeName("extractive.passages")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ExtractivePassages")
    record PassageAnswer(
            int passages,
            double confidence,
            Map<String, Double> passageFeatures,
            String withheld,
            double withheldConfidence)
            implements ExtractiveEvent {}

    /**
     * The reader's reading ({@code lorekeeper.extractive.reader}): the model, each passage read with the best
     * span in it and its no-answer score, the span chosen ({@code chosen}, null when no passage had one) with
     * its score, the no-answer score it was compared with (the least over the passages), its probability,
     * whether it was given as the answer ({@code answered}; otherwise the passages are), and the spans that
     * outscored it but were dropped as headings.
     */
    @JsonTypeName("extractive.read")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ExtractiveRead")
    record Read(
            String model,
            List<ReadPassage> passages,
            ReadSpan chosen,
            double noAnswerScore,
            double probability,
            boolean answered,
            List<ReadSpan> droppedHeadings)
            implements ExtractiveEvent {}

    /** One passage the reader read: where it is, its best span (null when none) and its no-answer score. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ExtractiveReadPassage")
    record ReadPassage(UUID documentId, int start, int end, ReadSpan best, double noAnswerScore) {}

    /** A span the reader scored: its text, absolute offsets and score (start plus end logit). */
    @Schema(name = "ExtractiveReadSpan")
    record ReadSpan(String text, int start, int end, double score) {}
}
