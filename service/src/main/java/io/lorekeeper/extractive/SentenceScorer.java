package io.lorekeeper.extractive;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.lorekeeper.text.Terms;

/**
 * Scores candidate sentences against a question from three signals, each in [0, 1]:
 * <ul>
 * <li>semantic: cosine similarity of sentence and question embeddings, min-max scaled over the
 * candidates (absolute bge cosines bunch together, their order is what carries information);</li>
 * <li>lexical: the IDF-weighted share of the question's terms the sentence contains, with IDF over
 * the candidate pool so that words every candidate shares count for little;</li>
 * <li>prior: how high retrieval ranked the sentence's chunk;</li>
 * </ul>
 * and then filtered by answer type: when the question asks for a person, time, quantity or place,
 * a sentence holding nothing of that kind (no new name for "who"...) keeps only part of its score;
 * otherwise the sentence that best restates the question wins over the one that answers it.
 * Very short sentences ("Good.") are damped: they match by accident more than they answer.
 */
final class SentenceScorer {

    static final double W_SEMANTIC = 0.5;
    static final double W_LEXICAL = 0.4;
    /** Chunk rank only breaks near-ties: sentence-level evidence is more precise than chunk-level. */
    static final double W_PRIOR = 0.1;
    /** Answer-type filtering: a who-question's sentence without a new name keeps half its score. */
    static final double TYPE_MISMATCH = 0.5;
    /** What a question sentence keeps of its score, and what share of it the reply that follows it gets. */
    static final double QUESTION_DAMP = 0.6;

    static final double REPLY_SHARE = 0.95;
    /**
     * In a conversation, what a person did or thinks is told in their own turns; a turn that names
     * them is mostly said to them ("Wow, Caroline, that sounds awesome!") and matches a question
     * about them by their name alone.
     */
    static final double OWN_WORDS = 1.2;

    static final double SAID_TO = 0.8;
    /**
     * "How many copies ...?": a sentence that gives a number of the very thing counted outranks one
     * that merely holds some number beside the question's other words.
     */
    static final double COUNTED = 1.25;
    /** Characters between a turn's last sentence and the next turn's first: a line break and "Name: ". */
    private static final int NEW_TURN_GAP = 3;

    record Scored(
            Candidate candidate, double score, double semantic, double lexical, double prior, boolean typeMatch) {}

    /** The terms of each sentence, analysed once: a novel's few thousand sentences recur across questions. */
    private static final Remembered<Set<String>> TERMS = new Remembered<>(20_000, text -> Set.copyOf(Terms.of(text)));

    private SentenceScorer() {}

    /** Whether the text has fewer than n runs of non-space characters (a split per sentence was the scorer's largest cost). */
    static boolean fewerWordsThan(String text, int n) {
        int words = 0;
        boolean inWord = false;
        for (int i = 0; i < text.length() && words < n; i++) {
            boolean space = Character.isWhitespace(text.charAt(i));
            if (!space && !inWord) {
                words++;
            }
            inWord = !space;
        }
        return words < n;
    }

    static List<Scored> score(
            String question,
            AnswerType type,
            List<Candidate> candidates,
            List<float[]> sentenceVectors,
            float[] questionVector) {
        List<Set<String>> sentenceTerms =
                candidates.stream().map(c -> TERMS.of(c.text())).toList();
        Map<String, Double> idf = idf(sentenceTerms);
        Set<String> questionTerms = new HashSet<>(Terms.of(question));
        double questionMass = questionTerms.stream()
                .mapToDouble(t -> idf.getOrDefault(t, maxIdf(candidates.size())))
                .sum();

        double[] cosines = new double[candidates.size()];
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (int i = 0; i < candidates.size(); i++) {
            cosines[i] = cosine(sentenceVectors.get(i), questionVector);
            min = Math.min(min, cosines[i]);
            max = Math.max(max, cosines[i]);
        }
        Set<String> askedSpeakers = askedSpeakers(question, candidates);
        java.util.Optional<String> counted =
                type == AnswerType.QUANTITY ? Counts.askedNoun(question) : java.util.Optional.empty();
        List<Scored> scored = new ArrayList<>();
        for (int i = 0; i < candidates.size(); i++) {
            Candidate c = candidates.get(i);
            double semantic = max - min < 1e-9 ? 1.0 : (cosines[i] - min) / (max - min);
            double matched = 0;
            for (String term : sentenceTerms.get(i)) {
                if (questionTerms.contains(term)) {
                    matched += idf.get(term);
                }
            }
            double lexical = questionMass == 0 ? 0 : Math.min(1.0, matched / questionMass);
            boolean typeMatch = type.foundIn(c.text(), question);
            double score = W_SEMANTIC * semantic + W_LEXICAL * lexical + W_PRIOR * c.prior();
            if (type.isKnown() && !typeMatch) {
                score *= TYPE_MISMATCH;
            }
            if (counted.isPresent() && Counts.counts(c.text(), counted.get())) {
                score *= COUNTED;
            }
            if (fewerWordsThan(c.text(), 4)) {
                score *= 0.7;
            }
            if (!askedSpeakers.isEmpty() && c.speaker() != null) {
                if (askedSpeakers.contains(c.speaker())) {
                    score *= OWN_WORDS;
                } else if (askedSpeakers.stream().anyMatch(name -> names(c.text(), name))) {
                    score *= SAID_TO;
                }
            }
            scored.add(new Scored(c, score, semantic, lexical, c.prior(), typeMatch));
        }
        answeredQuestions(type, scored);
        scored.sort(Comparator.comparingDouble(Scored::score).reversed());
        return scored;
    }

    /**
     * A sentence that is itself a question ("What got you into running?") matches a question best
     * and answers it least; in a conversation the answer is the reply that follows. Such a sentence
     * keeps part of its score, and the first sentence of the next turn in its chunk gets most of it.
     * Candidates are in chunk order, so the reply, when retrieved, is a later candidate of the same
     * chunk that starts on a new line (a gap longer than the space between two sentences of a turn).
     */
    private static void answeredQuestions(AnswerType type, List<Scored> scored) {
        for (int i = 0; i < scored.size(); i++) {
            Scored q = scored.get(i);
            if (!isQuestion(q.candidate().text())) {
                continue;
            }
            for (int j = i + 1; j < scored.size(); j++) {
                Scored next = scored.get(j);
                Candidate c = next.candidate();
                if (!c.documentId().equals(q.candidate().documentId())
                        || c.chunkOrdinal() != q.candidate().chunkOrdinal()) {
                    break;
                }
                if (c.span().start() - q.candidate().span().end() >= NEW_TURN_GAP && !isQuestion(c.text())) {
                    double inherited = REPLY_SHARE
                            * (q.typeMatch() || !type.isKnown() ? q.score() : q.score() / TYPE_MISMATCH)
                            * (next.typeMatch() || !type.isKnown() ? 1 : TYPE_MISMATCH);
                    if (inherited > next.score()) {
                        scored.set(
                                j,
                                new Scored(
                                        c, inherited, next.semantic(), next.lexical(), next.prior(), next.typeMatch()));
                    }
                    break;
                }
            }
            scored.set(
                    i,
                    new Scored(
                            q.candidate(),
                            q.score() * QUESTION_DAMP,
                            q.semantic(),
                            q.lexical(),
                            q.prior(),
                            q.typeMatch()));
        }
    }

    /** The speakers of the candidate turns that the question names ("Mel" names Melanie). */
    static Set<String> askedSpeakers(String question, List<Candidate> candidates) {
        Set<String> asked = new HashSet<>();
        for (Candidate c : candidates) {
            if (c.speaker() != null && !asked.contains(c.speaker()) && names(question, c.speaker())) {
                asked.add(c.speaker());
            }
        }
        return asked;
    }

    /** Whether the text names the speaker: their name, or a capitalised short form of it of three letters or more. */
    static boolean names(String text, String speaker) {
        String first = speaker.split("\\s+")[0];
        for (String word : text.split("[^\\p{L}]+")) {
            if (word.length() >= 3 && Character.isUpperCase(word.charAt(0)) && first.startsWith(word)) {
                return true;
            }
        }
        return false;
    }

    static boolean isQuestion(String sentence) {
        String s = sentence.strip();
        while (!s.isEmpty() && "\"”’')".indexOf(s.charAt(s.length() - 1)) >= 0) {
            s = s.substring(0, s.length() - 1);
        }
        return s.endsWith("?");
    }

    private static Map<String, Double> idf(List<Set<String>> documents) {
        Map<String, Integer> df = new HashMap<>();
        for (Set<String> terms : documents) {
            for (String term : terms) {
                df.merge(term, 1, Integer::sum);
            }
        }
        Map<String, Double> idf = new HashMap<>();
        int n = documents.size();
        df.forEach((term, count) -> idf.put(term, Math.log(1 + (n - count + 0.5) / (count + 0.5))));
        return idf;
    }

    private static double maxIdf(int n) {
        return Math.log(1 + (n + 0.5) / 0.5);
    }

    static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }
}
