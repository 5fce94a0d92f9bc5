package io.lorekeeper.extractive;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.Terms;
import io.lorekeeper.text.WordProximity;

/**
 * The answer when no short answer is certain enough to give: the best-scored sentences, each with
 * the sentences around it in its chunk, as passages to read. Picking the span that answers needs
 * reading comprehension that rules lack; finding the passage that holds it is what retrieval and
 * sentence scoring do well, so this is the honest answer without a model.
 *
 * <p>Its confidence says how likely the passages hold what was asked: a logistic model over what is
 * known of them ({@value #MODEL}), fitted by the evaluation harness on a novel the figures are not
 * reported on (docs/evaluation.md, "Selective answering").
 */
final class PassageAnswer {

    static final String MODEL = "extractive/passage-confidence.json";

    private static final Confidence.Model FITTED = Confidence.Model.load(MODEL);

    /** The passages, best first, with the features their confidence was computed from. */
    record Passages(List<Citation> citations, Map<String, Double> features, double confidence) {

        String text() {
            return String.join("\n\n", citations.stream().map(Citation::quote).toList());
        }
    }

    private PassageAnswer() {}

    /**
     * @param scored     every candidate sentence, best first
     * @param candidates the candidates in text order within each chunk
     * @param chunks     the retrieved chunks the candidates come from
     * @param count      the most passages
     * @param around     sentences kept on each side of a best sentence, within its chunk
     */
    static Passages of(
            String question,
            List<SentenceScorer.Scored> scored,
            List<Candidate> candidates,
            Map<SearchHit.ChunkKey, SearchHit> chunks,
            int count,
            int around) {
        Map<Candidate, Integer> index = new HashMap<>();
        for (int i = 0; i < candidates.size(); i++) {
            index.put(candidates.get(i), i);
        }
        List<Citation> passages = new ArrayList<>();
        for (SentenceScorer.Scored s : scored) {
            if (passages.size() >= count) {
                break;
            }
            Candidate c = s.candidate();
            if (passages.stream().anyMatch(p -> overlaps(p, c))) {
                continue;
            }
            Integer at = index.get(c);
            SearchHit chunk = chunks.get(new SearchHit.ChunkKey(c.documentId(), c.chunkOrdinal()));
            if (at == null || chunk == null) {
                continue;
            }
            Span span = window(candidates, at, around, chunk);
            Citation passage = Citation.of(
                    c.documentId(),
                    span.start(),
                    span.end(),
                    chunk.text().substring(span.start() - chunk.start(), span.end() - chunk.start()));
            if (passages.stream().noneMatch(p -> overlaps(p, passage))) {
                passages.add(passage);
            }
        }
        Map<String, Double> features = features(question, scored, passages);
        return new Passages(passages, features, passages.isEmpty() ? 0.01 : FITTED.probability(features));
    }

    /** The passages' confidence from {@code features} (those the model does not name weigh nothing). */
    static double confidence(Map<String, Double> features) {
        return FITTED.probability(features);
    }

    /**
     * The sentence at {@code at} and up to {@code around} neighbours on each side that follow on from it in
     * its chunk: a heading left out between two sentences ends the passage there.
     */
    private static Span window(List<Candidate> candidates, int at, int around, SearchHit chunk) {
        int lo = at;
        int hi = at;
        while (lo > 0 && at - lo < around && adjacent(candidates.get(lo - 1), candidates.get(lo), chunk)) {
            lo--;
        }
        while (hi + 1 < candidates.size()
                && hi - at < around
                && adjacent(candidates.get(hi), candidates.get(hi + 1), chunk)) {
            hi++;
        }
        return new Span(
                candidates.get(lo).span().start(), candidates.get(hi).span().end());
    }

    /** {@code b} follows {@code a} in the chunk with nothing but blanks and punctuation between them. */
    private static boolean adjacent(Candidate a, Candidate b, SearchHit chunk) {
        if (!a.documentId().equals(b.documentId())
                || a.chunkOrdinal() != b.chunkOrdinal()
                || b.span().start() < a.span().end()) {
            return false;
        }
        String between =
                chunk.text().substring(a.span().end() - chunk.start(), b.span().start() - chunk.start());
        return between.codePoints().noneMatch(Character::isLetterOrDigit);
    }

    private static boolean overlaps(Citation passage, Candidate c) {
        return passage.documentId().equals(c.documentId())
                && c.span().start() < passage.end()
                && passage.start() < c.span().end();
    }

    private static boolean overlaps(Citation a, Citation b) {
        return a.documentId().equals(b.documentId()) && b.start() < a.end() && a.start() < b.end();
    }

    /**
     * What the confidence model reads: the best sentence's score and its lead over the runner-up, whether
     * it holds the kind of answer asked for, and how many of the question's terms the passages contain.
     */
    /** The words within which the question's terms count as together, as hybrid search counts them. */
    private static final int PROXIMITY_WINDOW = 30;

    static Map<String, Double> features(String question, List<SentenceScorer.Scored> scored, List<Citation> passages) {
        Map<String, Double> f = new LinkedHashMap<>();
        if (scored.isEmpty()) {
            return f;
        }
        double best = scored.getFirst().score();
        f.put("passageBest", best);
        f.put(
                "passageLead",
                Math.max(0, best - (scored.size() > 1 ? scored.get(1).score() : 0)));
        f.put("passageTypeMatch", scored.getFirst().typeMatch() ? 1.0 : 0.0);
        Set<String> asked = new HashSet<>(Terms.of(question));
        Set<String> found = new HashSet<>();
        passages.forEach(p -> found.addAll(Terms.of(p.quote())));
        f.put(
                "passageCover",
                asked.isEmpty()
                        ? 0
                        : (double) asked.stream().filter(found::contains).count() / asked.size());
        // where the question's words meet in one passage, it most often answers (what hybrid search orders by)
        WordProximity terms = WordProximity.of(question);
        f.put(
                "passageTogether",
                passages.stream()
                        .mapToDouble(p -> terms.together(p.quote(), PROXIMITY_WINDOW))
                        .max()
                        .orElse(0));
        return f;
    }
}
