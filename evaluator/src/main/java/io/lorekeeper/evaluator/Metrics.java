package io.lorekeeper.evaluator;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Answer metrics, each a pure function pinned by unit tests to hand-computed examples.
 *
 * <ul>
 * <li>LoCoMo (the benchmark's own {@code evaluation.py}): lowercase, drop commas and ASCII
 * punctuation, drop the words a/an/the/and, Porter-stem, token F1. Category 1 (multi-hop): gold and
 * prediction are split on "," and the best F1 of any prediction part is averaged over the gold
 * parts; category 3: gold cut at the first ";"; category 5 (adversarial): 1 when the output contains one
 * of the official phrases "no information available" or "not mentioned", else 0, exactly as the
 * benchmark scores it, so that numbers compare with published ones. This service's prompts decline
 * with "not available", which the benchmark does not accept; {@link #declinesInOwnWording} counts that
 * too, for a figure reported beside the official one, never instead of it. The
 * stemmer is Lucene's Porter implementation; NLTK's, used by the official script, differs on a few
 * rare words.</li>
 * <li>SQuAD (HotpotQA, generic): lowercase, drop ASCII punctuation and a/an/the, token F1 and exact
 * match, best over the gold answers.</li>
 * <li>ROUGE-L F1 over lowercased alphanumeric tokens (longest common subsequence, beta = 1).</li>
 * <li>RULER string match: {@code all} = share of references contained in the output (case
 * insensitive), {@code part} = 1 if any is.</li>
 * </ul>
 */
public final class Metrics {

    private Metrics() {}

    private static final String PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
    private static final Pattern LOCOMO_STOP = Pattern.compile("\\b(a|an|the|and)\\b");
    private static final Pattern SQUAD_STOP = Pattern.compile("\\b(a|an|the)\\b");
    private static final Pattern NON_ALNUM = Pattern.compile("[^\\p{L}\\p{N}]+");
    /** The phrases LoCoMo's evaluation.py accepts as declining an adversarial question. */
    private static final List<String> LOCOMO_DECLINES = List.of("no information available", "not mentioned");
    /** This service's own ways of declining, accepted only by {@link #declinesInOwnWording}. */
    private static final List<String> OWN_DECLINES = List.of("not available", "no information");

    // ---- LoCoMo ----

    /** LoCoMo's normalisation, before stemming. */
    static String normalizeLocomo(String s) {
        String t = stripPunctuation(s.replace(",", "").toLowerCase(Locale.ROOT));
        return whitespace(LOCOMO_STOP.matcher(t).replaceAll(" "));
    }

    /** Normalised and Porter-stemmed tokens. */
    static List<String> locomoTokens(String s) {
        return stem(normalizeLocomo(s));
    }

    /** Token F1 with LoCoMo's normalisation and stemming. */
    public static double locomoTokenF1(String prediction, String gold) {
        return f1(locomoTokens(prediction), locomoTokens(gold));
    }

    /** Category 1: split both on "," and average, over the gold parts, the best F1 of any prediction part. */
    public static double locomoMultiHopF1(String prediction, String gold) {
        List<String> predictions =
                List.of(prediction.split(",")).stream().map(String::strip).toList();
        List<String> golds =
                List.of(gold.split(",")).stream().map(String::strip).toList();
        double sum = 0;
        for (String g : golds) {
            double best = 0;
            for (String p : predictions) {
                best = Math.max(best, locomoTokenF1(p, g));
            }
            sum += best;
        }
        return golds.isEmpty() ? 0 : sum / golds.size();
    }

    /** Whether an output declines for lack of information as LoCoMo's scoring recognises it (category 5). */
    public static boolean saysNotAvailable(String output) {
        String lower = output == null ? "" : output.toLowerCase(Locale.ROOT);
        return LOCOMO_DECLINES.stream().anyMatch(lower::contains);
    }

    /** {@link #saysNotAvailable}, or declining in this service's own words ("the information is not available"). */
    public static boolean declinesInOwnWording(String output) {
        String lower = output == null ? "" : output.toLowerCase(Locale.ROOT);
        return saysNotAvailable(output) || OWN_DECLINES.stream().anyMatch(lower::contains);
    }

    /** The LoCoMo score of an answer in a category (1 to 5). */
    public static double locomoF1(String prediction, String gold, int category) {
        String p = prediction == null ? "" : prediction;
        return switch (category) {
            case 1 -> locomoMultiHopF1(p, gold);
            case 3 -> locomoTokenF1(p, gold.split(";", 2)[0].strip());
            case 5 -> saysNotAvailable(p) ? 1.0 : 0.0;
            default -> locomoTokenF1(p, gold);
        };
    }

    /** Exact match after LoCoMo normalisation and stemming (category rules as for F1: cut at ";", category 5 as F1). */
    public static double locomoExactMatch(String prediction, String gold, int category) {
        String p = prediction == null ? "" : prediction;
        if (category == 5) {
            return saysNotAvailable(p) ? 1.0 : 0.0;
        }
        String g = category == 3 ? gold.split(";", 2)[0].strip() : gold;
        return locomoTokens(p).equals(locomoTokens(g)) ? 1.0 : 0.0;
    }

    // ---- SQuAD ----

    static String normalizeSquad(String s) {
        String t = stripPunctuation(s.toLowerCase(Locale.ROOT));
        return whitespace(SQUAD_STOP.matcher(t).replaceAll(" "));
    }

    public static double squadF1(String prediction, List<String> golds) {
        double best = 0;
        for (String g : golds) {
            best = Math.max(
                    best, f1(tokens(normalizeSquad(prediction == null ? "" : prediction)), tokens(normalizeSquad(g))));
        }
        return best;
    }

    public static double squadExactMatch(String prediction, List<String> golds) {
        String p = normalizeSquad(prediction == null ? "" : prediction);
        return golds.stream().anyMatch(g -> normalizeSquad(g).equals(p)) ? 1.0 : 0.0;
    }

    // ---- ROUGE-L ----

    public static double rougeL(String prediction, String gold) {
        List<String> p = alnumTokens(prediction);
        List<String> g = alnumTokens(gold);
        if (p.isEmpty() || g.isEmpty()) {
            return 0;
        }
        int lcs = lcs(p, g);
        if (lcs == 0) {
            return 0;
        }
        double precision = (double) lcs / p.size();
        double recall = (double) lcs / g.size();
        return 2 * precision * recall / (precision + recall);
    }

    public static double rougeL(String prediction, List<String> golds) {
        return golds.stream().mapToDouble(g -> rougeL(prediction, g)).max().orElse(0);
    }

    static int lcs(List<String> a, List<String> b) {
        int[] prev = new int[b.size() + 1];
        int[] cur = new int[b.size() + 1];
        for (int i = 1; i <= a.size(); i++) {
            for (int j = 1; j <= b.size(); j++) {
                cur[j] = a.get(i - 1).equals(b.get(j - 1)) ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.size()];
    }

    // ---- multiple choice, RULER ----

    public static double choiceAccuracy(Integer chosen, Integer gold) {
        return chosen != null && chosen.equals(gold) ? 1.0 : 0.0;
    }

    public static double rulerStringMatchAll(String prediction, List<String> references) {
        String p = prediction == null ? "" : prediction.toLowerCase(Locale.ROOT);
        return references.isEmpty()
                ? 0
                : references.stream()
                                .filter(r -> p.contains(r.toLowerCase(Locale.ROOT)))
                                .count()
                        / (double) references.size();
    }

    public static double rulerStringMatchPart(String prediction, List<String> references) {
        String p = prediction == null ? "" : prediction.toLowerCase(Locale.ROOT);
        return references.stream().anyMatch(r -> p.contains(r.toLowerCase(Locale.ROOT))) ? 1.0 : 0.0;
    }

    // ---- evidence ----

    /** A character span {@code [start, end)} of one document. */
    public record DocSpan(String documentId, int start, int end) {}

    /**
     * 1 when one of the gold answers appears, as whole words, in one of the context's texts (case,
     * runs of white space and curly quotes aside), else 0; null without a gold answer. What a reader
     * of the context could answer from, whichever passage holds it: unlike evidence recall it needs no
     * gold passage, and it credits any mention, so a set of questions whose answers are everywhere
     * (a main character's name) says little with it.
     */
    public static Double answerInContext(List<String> answers, List<String> context) {
        List<Pattern> wanted = answers.stream()
                .map(Metrics::plain)
                .filter(a -> !a.isBlank())
                .map(a -> Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(a) + "(?![\\p{L}\\p{N}])"))
                .toList();
        if (wanted.isEmpty()) {
            return null;
        }
        for (String text : context) {
            String plain = plain(text);
            if (wanted.stream().anyMatch(w -> w.matcher(plain).find())) {
                return 1.0;
            }
        }
        return 0.0;
    }

    /**
     * Whether a reader finds one of the gold answers in what the service answered: the answer's text or
     * one of its citations' quotes (as {@link #answerInContext} finds it). A passage answer is right when it
     * is; a short one is judged by its score.
     */
    public static boolean holdsAnswer(List<String> answers, String answer, List<String> quotes) {
        List<String> texts = new ArrayList<>(quotes);
        texts.add(answer == null ? "" : answer);
        return Double.valueOf(1.0).equals(answerInContext(answers, texts));
    }

    /** The texts of the context spans over {@code documentId}'s text. */
    public static List<String> texts(String text, String documentId, List<DocSpan> context) {
        List<String> texts = new ArrayList<>();
        for (DocSpan span : context) {
            if (span.documentId().equals(documentId)
                    && span.start() >= 0
                    && span.end() <= text.length()
                    && span.start() < span.end()) {
                texts.add(text.substring(span.start(), span.end()));
            }
        }
        return texts;
    }

    private static String plain(String text) {
        return text.toLowerCase(Locale.ROOT)
                .replace('\u2019', '\'')
                .replace('\u2018', '\'')
                .replace('\u201C', '"')
                .replace('\u201D', '"')
                .replaceAll("\\s+", " ")
                .strip();
    }

    /**
     * Share of gold evidence spans that lie in the context: a gold span counts when at least half of
     * its characters are covered by the union of the context spans of the same document (turns and
     * sentences usually lie wholly inside a retrieved chunk or not at all; the half rule tolerates a
     * chunk boundary cutting a long paragraph). Null when there is no gold evidence.
     */
    public static Double evidenceRecall(List<DocSpan> gold, List<DocSpan> context) {
        if (gold.isEmpty()) {
            return null;
        }
        int hit = 0;
        for (DocSpan g : gold) {
            if (coverage(g, context) * 2 >= Math.max(1, g.end() - g.start())) {
                hit++;
            }
        }
        return hit / (double) gold.size();
    }

    private static int coverage(DocSpan g, List<DocSpan> context) {
        List<int[]> parts = new ArrayList<>();
        for (DocSpan c : context) {
            if (c.documentId().equals(g.documentId())) {
                int s = Math.max(c.start(), g.start());
                int e = Math.min(c.end(), g.end());
                if (e > s) {
                    parts.add(new int[] {s, e});
                }
            }
        }
        parts.sort((x, y) -> Integer.compare(x[0], y[0]));
        int covered = 0;
        int reach = g.start();
        for (int[] p : parts) {
            int s = Math.max(p[0], reach);
            if (p[1] > s) {
                covered += p[1] - s;
                reach = p[1];
            }
        }
        return covered;
    }

    // ---- helpers ----

    static double f1(List<String> prediction, List<String> gold) {
        Map<String, Integer> counts = new HashMap<>();
        gold.forEach(t -> counts.merge(t, 1, Integer::sum));
        int same = 0;
        for (String t : prediction) {
            Integer c = counts.get(t);
            if (c != null && c > 0) {
                same++;
                counts.put(t, c - 1);
            }
        }
        if (same == 0) {
            return 0;
        }
        double precision = (double) same / prediction.size();
        double recall = (double) same / gold.size();
        return 2 * precision * recall / (precision + recall);
    }

    private static String stripPunctuation(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (PUNCTUATION.indexOf(c) < 0) {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String whitespace(String s) {
        return String.join(" ", tokens(s));
    }

    private static List<String> tokens(String s) {
        String t = s.strip();
        return t.isEmpty() ? List.of() : List.of(t.split("\\s+"));
    }

    private static List<String> alnumTokens(String s) {
        if (s == null) {
            return List.of();
        }
        return List.of(NON_ALNUM.split(s.toLowerCase(Locale.ROOT))).stream()
                .filter(t -> !t.isEmpty())
                .toList();
    }

    private static List<String> stem(String normalized) {
        List<String> out = new ArrayList<>();
        WhitespaceTokenizer tokenizer = new WhitespaceTokenizer();
        try (TokenStream stream = new PorterStemFilter(tokenizer)) {
            tokenizer.setReader(new StringReader(normalized));
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                out.add(term.toString());
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
