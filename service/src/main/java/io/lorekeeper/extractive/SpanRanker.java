package io.lorekeeper.extractive;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lorekeeper.text.Span;

/**
 * Chooses the short answer among the pieces of the best sentences ({@link ShortAnswer#candidates}) by
 * a linear score over general features: what kind of piece it is against the kind of answer asked
 * for, how near it stands to the question's own words, how much of it repeats the question, how
 * highly its sentence was scored, how often the best sentences offer the same piece. The weights are
 * data ({@value #MODEL}), fitted on evaluation folds by the evaluator's {@code fit-spans} (docs/evaluation.md,
 * "Cross-validated report"): a feature the file does not name weighs nothing.
 */
final class SpanRanker {

    static final String MODEL = "extractive/answer-spans.json";

    /** How many of the best-scored sentences offer pieces. */
    static final int SENTENCES = 5;

    private static final Confidence.Model FITTED = Confidence.Model.load(MODEL);
    private static final Pattern YEAR = Pattern.compile("1\\d{3}|20\\d{2}");
    private static final Pattern WH =
            Pattern.compile("\\b(what|which|who|whom|whose|when|where|why|how)\\b", Pattern.CASE_INSENSITIVE);

    /**
     * One piece that could answer, where it comes from and what it is scored on.
     *
     * @param source how it was found: its kind ("date", "names", ...), or "hop" for the sentences
     *               {@link SecondHop} leads to
     */
    record Piece(
            Candidate sentence, ShortAnswer.Answer answer, String source, Map<String, Double> features, double score) {}

    /**
     * A sentence offering pieces: its rank among the scored sentences, its score relative to the best,
     * the day it was said on (null in prose) and where it comes from (null: the best sentences).
     */
    record Offer(Candidate sentence, int rank, double relativeScore, LocalDate said, String source) {

        Offer(Candidate sentence, int rank, double relativeScore, LocalDate said) {
            this(sentence, rank, relativeScore, said, null);
        }
    }

    private SpanRanker() {}

    /** Every piece the offered sentences hold, scored, in the order offered (the chosen one: {@link #best}). */
    static List<Piece> pieces(String question, AnswerType type, List<Offer> offers, boolean prose) {
        Set<String> asked = ShortAnswer.words(question);
        Set<String> askedContent = contentStems(question);
        String wh = questionWord(question);
        List<Piece> unscored = new ArrayList<>();
        Map<String, Set<Integer>> offeredBy = new HashMap<>();
        for (Offer offer : offers) {
            String text = offer.sentence().text();
            List<Span> near = ShortAnswer.questionWordSpans(text, asked);
            double coverage = askedContent.isEmpty()
                    ? 0
                    : (double) near.stream()
                                    .map(s -> ShortAnswer.stem(s.of(text)))
                                    .distinct()
                                    .count()
                            / askedContent.size();
            for (ShortAnswer.Answer a : ShortAnswer.candidates(question, text, offer.said())) {
                offeredBy
                        .computeIfAbsent(key(a), k -> new java.util.HashSet<>())
                        .add(offer.rank());
                Map<String, Double> f =
                        features(type, a, text, near, askedContent, offer, Math.min(1, coverage), prose, wh);
                unscored.add(new Piece(offer.sentence(), a, source(offer, a), f, 0));
            }
        }
        // votes need every offer's pieces first: how many of the sentences offer the same text
        List<Piece> scored = new ArrayList<>(unscored.size());
        for (Piece p : unscored) {
            p.features().put("votes", Math.log(offeredBy.get(key(p.answer())).size()));
            scored.add(new Piece(p.sentence(), p.answer(), p.source(), p.features(), score(p.features())));
        }
        return scored;
    }

    private static String key(ShortAnswer.Answer a) {
        return a.text().toLowerCase(Locale.ROOT).strip();
    }

    /** The highest-scored piece; the first offered wins a tie. */
    static Piece best(List<Piece> pieces) {
        Piece best = pieces.getFirst();
        for (Piece p : pieces) {
            if (p.score() > best.score()) {
                best = p;
            }
        }
        return best;
    }

    /** The best piece of one sentence (an item of a list answer). */
    static ShortAnswer.Answer bestIn(
            String question, AnswerType type, Candidate sentence, LocalDate said, boolean prose) {
        return best(pieces(question, type, List.of(new Offer(sentence, 0, 1, said)), prose))
                .answer();
    }

    private static String source(Offer offer, ShortAnswer.Answer a) {
        return offer.source() != null ? offer.source() : a.kind().name().toLowerCase(Locale.ROOT);
    }

    /**
     * The features of one piece. Kinds are one-hot, alone and crossed with the asked type and with
     * prose (encyclopedia paragraphs and chat turns answer differently), so each pairing gets its own
     * weight; the rest are numbers in [0, 1] or small logs.
     */
    static Map<String, Double> features(
            AnswerType type,
            ShortAnswer.Answer a,
            String sentence,
            List<Span> near,
            Set<String> askedContent,
            Offer offer,
            double coverage,
            boolean prose,
            String wh) {
        String kind = a.kind().name().toLowerCase(Locale.ROOT);
        String asked = type.name().toLowerCase(Locale.ROOT);
        Map<String, Double> f = new LinkedHashMap<>();
        f.put("kind:" + kind, 1.0);
        f.put(asked + ":" + kind, 1.0);
        f.put(wh + ":" + kind, 1.0);
        if (prose) {
            f.put("prose:" + kind, 1.0);
        }
        if (offer.source() != null) {
            f.put("source:" + offer.source(), 1.0);
        }
        f.put("rank", 1.0 / (1 + offer.rank()));
        f.put("relativeScore", offer.relativeScore());
        f.put("coverage", coverage);
        f.put("near", nearness(a.span(), near));
        List<String> words = ShortAnswer.contentWords(a.span().of(sentence));
        long repeated = words.stream()
                .filter(w -> askedContent.contains(ShortAnswer.stem(w)))
                .count();
        f.put("repeats", words.isEmpty() ? 0 : (double) repeated / words.size());
        f.put("words", Math.log(1 + a.text().split("\\s+").length));
        f.put("contentWords", Math.min(words.size(), 8) / 8.0);
        f.put("opens", a.span().start() == 0 ? 1.0 : 0.0);
        f.put("derived", a.derived() ? 1.0 : 0.0);
        f.put("yearLike", YEAR.matcher(a.text()).matches() ? 1.0 : 0.0);
        f.put("follows", follows(a.span(), near, sentence));
        f.put("precedes", precedes(a.span(), near, sentence));
        f.put("capitalised", capitalised(a.text()));
        f.put("digits", a.text().chars().anyMatch(Character::isDigit) ? 1.0 : 0.0);
        f.put("enclosed", enclosed(a.span(), sentence));
        return f;
    }

    /** The question's wh-word ("what", "who", "why", ...), "closed" for one without ("Did she ...?"). */
    static String questionWord(String question) {
        Matcher m = WH.matcher(question);
        return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : "closed";
    }

    /** The share of the piece's words that are capitalised: names, titles and places are. */
    private static double capitalised(String text) {
        String[] words = text.strip().split("\\s+");
        long upper = java.util.Arrays.stream(words)
                .filter(w -> !w.isEmpty() && Character.isUpperCase(w.charAt(0)))
                .count();
        return (double) upper / words.length;
    }

    /** 1 when the piece stands inside quotation marks or brackets (a title, an aside). */
    private static double enclosed(Span span, String sentence) {
        String before = sentence.substring(0, span.start());
        String after = sentence.substring(span.end());
        boolean quoted = before.matches("(?s).*[\"“']\\s*$") && after.matches("(?s)^\\s*[\"”'].*");
        boolean bracketed = before.lastIndexOf('(') > before.lastIndexOf(')') && after.indexOf(')') >= 0;
        return quoted || bracketed ? 1.0 : 0.0;
    }

    /** 1 beside a question word, falling with the distance in characters; 0 when no question word is in the sentence. */
    private static double nearness(Span span, List<Span> near) {
        int best = Integer.MAX_VALUE;
        for (Span w : near) {
            if (w.start() >= span.start() && w.end() <= span.end()) {
                continue; // a word inside the piece is not beside it
            }
            best = Math.min(best, Math.min(Math.abs(w.start() - span.end()), Math.abs(span.start() - w.end())));
        }
        return best == Integer.MAX_VALUE ? 0 : Math.exp(-best / 40.0);
    }

    /** 1 when a question word ends right before the piece, with nothing but spaces between ("invited me to [a yoga class]"). */
    private static double follows(Span span, List<Span> near, String sentence) {
        for (Span w : near) {
            if (w.end() <= span.start()
                    && sentence.substring(w.end(), span.start())
                            .replaceAll("[\\p{L}'’]+", "")
                            .isBlank()
                    && sentence.substring(w.end(), span.start()).split("\\s+").length <= 3) {
                return 1.0;
            }
        }
        return 0.0;
    }

    /** 1 when a question word follows right after the piece ("[Hector] paid for the millstones"). */
    private static double precedes(Span span, List<Span> near, String sentence) {
        for (Span w : near) {
            if (w.start() >= span.end()
                    && sentence.substring(span.end(), w.start()).isBlank()) {
                return 1.0;
            }
        }
        return 0.0;
    }

    private static Set<String> contentStems(String question) {
        Set<String> out = new java.util.HashSet<>();
        ShortAnswer.contentWords(question).forEach(w -> out.add(ShortAnswer.stem(w)));
        return out;
    }

    static double score(Map<String, Double> features) {
        return FITTED.linear(features);
    }

    /** What a scored list of sentences offers: the best {@link #SENTENCES}, each with its session's date where one is known. */
    static List<Offer> offers(List<SentenceScorer.Scored> scored, Function<Candidate, LocalDate> said) {
        double best = scored.getFirst().score();
        List<Offer> out = new ArrayList<>();
        for (int i = 0; i < Math.min(SENTENCES, scored.size()); i++) {
            Candidate c = scored.get(i).candidate();
            out.add(new Offer(c, i, best <= 0 ? 0 : scored.get(i).score() / best, said.apply(c)));
        }
        return out;
    }
}
