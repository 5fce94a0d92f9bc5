package io.lorekeeper.extractive;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntPredicate;

import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.memory.OnnxPairModel;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.StrategyResult;
import io.lorekeeper.text.Span;

/**
 * The answer when a reader is configured: the reader reads the question with each of the best passages
 * (the ones a passage answer would quote, {@code reader.passages} of them) and its best span
 * ({@link ReaderSpans}) is the short answer, cited at its exact offsets and with the passage it was read
 * in, when two tests pass:
 * <ol>
 * <li>the span beats the no-answer score by {@code reader.no-answer-margin} (SQuAD 2.0's comparison: the
 * reader itself says whether the passages answer at all; a model trained with unanswerable questions
 * puts its weight on [CLS] when they do not);</li>
 * <li>its probability, the confidence, is at least {@code shortAnswerConfidence}, the same bar the rules'
 * short answers pass, so that the per-question option means the same with a reader.</li>
 * </ol>
 * Otherwise the answer is the best passages, as without a reader. The confidence of a span is the reader's
 * probability; the reader's scores join the recorded confidence features either way, so that the fold
 * calibration of docs/evaluation.md can fit what they add once a real reader has been run.
 */
final class ReaderAnswer {

    private ReaderAnswer() {}

    static StrategyResult of(
            QuestionContext context,
            ReaderModel reader,
            double shortAnswerConfidence,
            int quoted,
            int around,
            List<SentenceScorer.Scored> scored,
            List<Candidate> candidates,
            Map<SearchHit.ChunkKey, SearchHit> chunks,
            Map<UUID, DocumentKind> kinds) {
        String question = context.question();
        ExtractiveSettings.Reader settings = reader.settings();
        List<Citation> read = PassageAnswer.of(question, scored, candidates, chunks, settings.passages(), around)
                .citations();
        List<ReaderSpans.Passage> passages = read.stream()
                .map(c -> new ReaderSpans.Passage(c.quote(), c.start()))
                .toList();
        List<OnnxPairModel.Reading> readings = reader.read(
                question, passages.stream().map(ReaderSpans.Passage::text).toList());
        context.cancellation().throwIfCancelled();
        ReaderSpans.Choice choice = ReaderSpans.pick(
                passages, readings, settings.maxAnswerPieces(), p -> headings(read.get(p), chunks, kinds));
        Map<String, Double> features = features(choice);
        double probability = clamp(choice.probability());
        boolean answered = choice.best() != null
                && choice.margin() > settings.noAnswerMargin()
                && probability >= shortAnswerConfidence;
        context.trace().record(event(reader.name(), read, choice, answered));
        ReaderSpans.Found best = choice.best();
        if (best != null) {
            Citation passage = read.get(best.passage());
            List<Citation> citations = List.of(
                    Citation.of(
                            passage.documentId(),
                            best.span().start(),
                            best.span().end(),
                            best.text()),
                    passage);
            context.trace().record(new ExtractiveEvent.Answer(best.text(), probability, citations.size(), features));
            if (answered) {
                return new StrategyResult(best.text(), StrategyResult.EXTRACTIVE, citations, probability, null, false);
            }
        }
        PassageAnswer.Passages found = PassageAnswer.of(question, scored, candidates, chunks, quoted, around);
        Map<String, Double> passageFeatures = new LinkedHashMap<>(found.features());
        passageFeatures.putAll(features);
        double confidence =
                found.citations().isEmpty() ? found.confidence() : PassageAnswer.confidence(passageFeatures);
        context.trace()
                .record(new ExtractiveEvent.PassageAnswer(
                        found.citations().size(),
                        confidence,
                        passageFeatures,
                        best == null ? null : best.text(),
                        best == null ? 0 : probability));
        return StrategyResult.passages(found.text(), found.citations(), confidence);
    }

    /**
     * What the reader says, as confidence features: the best span's probability and score, its lead over the
     * no-answer score, and the no-answer score's own share.
     */
    static Map<String, Double> features(ReaderSpans.Choice choice) {
        Map<String, Double> f = new LinkedHashMap<>();
        f.put("reader", 1.0);
        f.put("readerProbability", choice.probability());
        f.put("readerNoAnswerProbability", choice.noAnswerProbability());
        if (choice.best() != null) {
            f.put("readerScore", choice.best().score());
            f.put("readerMargin", choice.margin());
        }
        return f;
    }

    /** The heading sentences of the chunk a passage lies in; a conversation has none. */
    private static IntPredicate headings(
            Citation passage, Map<SearchHit.ChunkKey, SearchHit> chunks, Map<UUID, DocumentKind> kinds) {
        if (kinds.get(passage.documentId()) == DocumentKind.CONVERSATION) {
            return at -> false;
        }
        List<Span> headings = new ArrayList<>();
        chunks.values().stream()
                .filter(c -> c.documentId().equals(passage.documentId())
                        && c.start() <= passage.start()
                        && passage.end() <= c.end())
                .findFirst()
                .ifPresentOrElse(
                        c -> headings.addAll(ReaderSpans.headings(c.text(), c.start())),
                        () -> headings.addAll(ReaderSpans.headings(passage.quote(), passage.start())));
        return at -> ReaderSpans.inside(headings, at);
    }

    private static ExtractiveEvent.Read event(
            String model, List<Citation> read, ReaderSpans.Choice choice, boolean answered) {
        List<ExtractiveEvent.ReadPassage> passages = new ArrayList<>();
        for (int i = 0; i < read.size(); i++) {
            Citation c = read.get(i);
            passages.add(new ExtractiveEvent.ReadPassage(
                    c.documentId(),
                    c.start(),
                    c.end(),
                    span(choice.bestPerPassage().get(i)),
                    round(choice.noAnswers().get(i))));
        }
        return new ExtractiveEvent.Read(
                model,
                passages,
                span(choice.best()),
                passages.isEmpty() ? 0 : round(choice.noAnswer()),
                round(choice.probability()),
                answered,
                choice.headings().stream().map(ReaderAnswer::span).toList());
    }

    private static ExtractiveEvent.ReadSpan span(ReaderSpans.Found f) {
        return f == null
                ? null
                : new ExtractiveEvent.ReadSpan(
                        f.text(), f.span().start(), f.span().end(), round(f.score()));
    }

    private static double clamp(double p) {
        return Math.max(0.01, Math.min(0.99, p));
    }

    private static double round(double d) {
        return Math.round(d * 10000) / 10000.0;
    }
}
