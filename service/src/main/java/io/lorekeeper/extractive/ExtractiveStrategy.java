package io.lorekeeper.extractive;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.memory.Embeddings;
import io.lorekeeper.memory.SentenceVectors;
import io.lorekeeper.retrieval.Retriever;
import io.lorekeeper.retrieval.SearchMode;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.SettingsStrategy;
import io.lorekeeper.strategy.StrategyRequirements;
import io.lorekeeper.strategy.StrategyResult;

/**
 * Answers without an LLM with the part of the best supporting source sentence that the question
 * asks for ({@link ShortAnswer}), citing that sentence.
 *
 * <ol>
 * <li>Hybrid retrieval with the question (k chunks).</li>
 * <li>Bridging: names the best hits mention but the question does not become extra queries,
 * {@code hops} times, so that two-hop evidence can be reached.</li>
 * <li>Every sentence of the retrieved chunks is scored ({@link SentenceScorer}); the best one is
 * the one the answer is taken from, and it and the runners-up close to it are the citations.</li>
 * <li>Multiple choice: each choice is also searched, and the best-supported choice wins
 * ({@link ChoicePicker}).</li>
 * </ol>
 * In a conversation, a "when" answer is resolved against its session's date ("yesterday" said on
 * 8 May 2023 answers "7 May 2023") and the session's date line is cited beside the sentence,
 * because turns say "yesterday" and only the header says which day that was.
 */
@Component
class ExtractiveStrategy extends SettingsStrategy<ExtractiveStrategy.Settings> {

    static final String NAME = "extractive";
    /** Runners-up are cited only when nearly as good as the answer; weaker ones would be noise. */
    private static final double CITATION_RATIO = 0.92;
    /** Sentences of second-hop paragraphs offered to the ranker. */
    private static final int HOP_SENTENCES = 3;
    /** Pieces kept in the trace: enough for every question of the evaluation sets (about 40 a question). */
    private static final int MAX_RECORDED_PIECES = 120;

    private static final Set<String> OPTIONS =
            Set.of("k", "hops", "maxSpans", "maxSentences", "shortAnswerConfidence", "passages", "reader");

    private final Embeddings embeddings;
    private final SentenceVectors stored;
    private final ExtractiveSettings defaults;
    private final ReaderModel reader;
    private final ChoiceAnswers choices;

    ExtractiveStrategy(Embeddings embeddings, SentenceVectors stored, ExtractiveSettings defaults, ReaderModel reader) {
        super(
                NAME,
                StrategyRequirements.of(
                        false,
                        "a short answer quoted from the best source sentence when it is certain enough, else the"
                                + " best passages; hybrid retrieval and sentence scoring, no LLM"),
                options -> Settings.of(options, defaults));
        this.embeddings = embeddings;
        this.stored = stored;
        this.defaults = defaults;
        this.reader = reader;
        this.choices = new ChoiceAnswers(embeddings);
    }

    /** @param reader whether the configured reader picks the short answer (option {@code reader}; false: the rules do) */
    record Settings(
            int k,
            int hops,
            int maxSpans,
            int maxSentences,
            double shortAnswerConfidence,
            int passages,
            boolean reader) {
        static Settings of(QuestionOptions options, ExtractiveSettings defaults) {
            options.allowOnly(OPTIONS);
            return new Settings(
                    options.intValue("k", 12, 1, 50),
                    options.intValue("hops", 1, 0, 3),
                    options.intValue("maxSpans", 3, 1, 10),
                    options.intValue("maxSentences", 400, 10, 2000),
                    options.doubleValue("shortAnswerConfidence", defaults.shortAnswerConfidence(), 0, 1),
                    options.intValue("passages", defaults.passages(), 1, 10),
                    options.booleanValue("reader", true));
        }
    }

    @Override
    protected StrategyResult answer(QuestionContext context, Settings settings) {
        Map<UUID, DocumentKind> kinds =
                context.documents().stream().collect(Collectors.toMap(DocumentInfo::id, DocumentInfo::kind));
        Hits hits = retrieve(context, settings);
        context.cancellation().throwIfCancelled();

        List<Candidate> candidates = CandidateSentences.from(hits.list, kinds::get);
        if (candidates.size() > settings.maxSentences()) {
            candidates = candidates.subList(0, settings.maxSentences());
        }
        if (candidates.isEmpty()) {
            context.trace().record(new ExtractiveEvent.Unanswered("nothing retrieved"));
            return StrategyResult.passages("", List.of(), 0.0);
        }
        Vectors found = vectors(candidates);
        AnswerType type = AnswerType.of(context.question());
        List<SentenceScorer.Scored> scored = score(context, type, candidates, found);
        if (context.isMultipleChoice()) {
            return choices.choose(context, candidates, found.list());
        }
        List<String> alternatives = ClosedQuestions.alternatives(context.question());
        if (!alternatives.isEmpty()) {
            return choices.alternative(context, alternatives, scored, candidates, found.list());
        }
        if (reader.isOn() && settings.reader() && !ClosedQuestions.isYesNo(context.question())) {
            return ReaderAnswer.of(
                    context,
                    reader,
                    settings.shortAnswerConfidence(),
                    settings.passages(),
                    defaults.passageSentences(),
                    scored,
                    candidates,
                    hits.chunks(),
                    kinds);
        }
        return answerFrom(context, settings, kinds, type, scored, candidates, hits.chunks());
    }

    /**
     * The hits whose sentences are scored: the question's hybrid search, widened by keyword and vector
     * searches, then bridged {@code hops} times, then searched with each choice.
     */
    private static Hits retrieve(QuestionContext context, Settings settings) {
        String question = context.question();
        Retriever retriever = context.retriever();
        List<UUID> ids = context.documentIds();
        Hits hits = new Hits();
        Retriever.Hybrid hybrid = retriever.hybridRankings(ids, question, settings.k());
        hits.addAll(hybrid.fused());
        context.trace()
                .record(new ExtractiveEvent.Retrieve(question, SearchMode.HYBRID.wireName(), summary(hits.list), null));
        // Widen recall below the fused list: a chunk that only one retriever ranks well (a rare
        // word BM25 loves, a paraphrase only the embedding sees) still gets its sentences scored.
        // The fused search ranked both lists deeper than this already (3k against 2k).
        List<SearchHit> keywordOnly = hits.addAll(head(hybrid.byKeyword(), 2 * settings.k()));
        List<SearchHit> vectorOnly = hits.addAll(head(hybrid.byVector(), 2 * settings.k()));
        context.trace()
                .record(new ExtractiveEvent.Retrieve(
                        question, "keyword+vector", summary(keywordOnly), summary(vectorOnly)));
        int followUpK = Math.max(3, settings.k() / 2);
        bridge(context, hits, settings.hops(), followUpK);
        for (String choice : context.choices()) {
            String query = question + " " + choice;
            List<SearchHit> found = hits.addAll(retriever.hybrid(ids, query, followUpK));
            context.trace()
                    .record(new ExtractiveEvent.Retrieve(query, SearchMode.HYBRID.wireName(), summary(found), null));
        }
        return hits;
    }

    /** Names the best hits mention but the question does not become extra queries, hop after hop, until none is left. */
    private static void bridge(QuestionContext context, Hits hits, int hops, int followUpK) {
        String question = context.question();
        for (int hop = 0; hop < hops; hop++) {
            List<String> entities =
                    BridgeEntities.from(hits.list.subList(0, Math.min(3, hits.list.size())), question, 2);
            List<SearchHit> found = new ArrayList<>();
            for (String entity : entities) {
                found.addAll(hits.addAll(
                        context.retriever().hybrid(context.documentIds(), question + " " + entity, followUpK)));
            }
            context.trace().record(new ExtractiveEvent.Bridge(hop + 1, entities, summary(found)));
            if (entities.isEmpty()) {
                break;
            }
        }
    }

    /** Every candidate sentence scored for the question, best first. */
    private List<SentenceScorer.Scored> score(
            QuestionContext context, AnswerType type, List<Candidate> candidates, Vectors found) {
        String question = context.question();
        List<SentenceScorer.Scored> scored =
                SentenceScorer.score(question, type, candidates, found.list(), embeddings.query(question));
        context.trace()
                .record(new ExtractiveEvent.Sentences(
                        type.name().toLowerCase(),
                        candidates.size(),
                        found.stored(),
                        found.embedded(),
                        scored.stream()
                                .limit(8)
                                .map(ExtractiveStrategy::describe)
                                .toList()));
        return scored;
    }

    /**
     * The short answer: yes or no for a closed question; otherwise the piece {@link SpanRanker} scores
     * highest among those of the best sentences and, in texts, of the paragraphs a second hop from the
     * best sentence reaches. Cited with its sentence, the best sentence, the session's date line where a time
     * was resolved against it, the sentences of a list answer and the runners-up nearly as good.
     */
    private StrategyResult answerFrom(
            QuestionContext context,
            Settings settings,
            Map<UUID, DocumentKind> kinds,
            AnswerType type,
            List<SentenceScorer.Scored> scored,
            List<Candidate> candidates,
            Map<SearchHit.ChunkKey, SearchHit> chunks) {
        SentenceScorer.Scored best = scored.getFirst();
        double runnerUp = scored.size() > 1 ? scored.get(1).score() : 0;
        boolean conversation = kinds.get(best.candidate().documentId()) == DocumentKind.CONVERSATION;
        String question = context.question();
        // one lookup per session: the best sentences often share one
        Map<List<Object>, Optional<Citation>> headers = new HashMap<>();
        java.util.function.Function<Candidate, Optional<Citation>> header = c -> conversation
                ? headers.computeIfAbsent(
                        List.of(c.documentId(), c.pageOrdinal()), k -> sessionHeader(context.retriever(), c))
                : Optional.empty();
        List<Citation> citations = new ArrayList<>();
        Ranked ranked = ClosedQuestions.isYesNo(question)
                ? Ranked.yesOrNo(question, best.candidate())
                : rank(context, type, scored, candidates, conversation, header);
        Candidate source = ranked.source();
        ShortAnswer.Answer answer = ranked.answer();
        List<SpanRanker.Piece> pieces = ranked.pieces();
        SpanRanker.Piece chosen = ranked.chosen();
        if (!source.equals(best.candidate())) {
            citations.add(citation(source));
            recordDetour(context, chosen, best.candidate());
        }
        context.trace().record(span(source, answer));
        Citation first = citation(best.candidate());
        if (!citations.contains(first)) {
            citations.add(first);
        }
        if (type == AnswerType.TIME) {
            header.apply(source)
                    .ifPresent(citations::add); // a resolved "yesterday" needs the date it was said on beside it
        }
        ShortAnswer.Answer shortAnswer = asList(context, type, scored, answer, citations, !conversation);
        if (chosen != null) {
            recordPieces(context, pieces, chosen, shortAnswer == answer);
        }
        addRunnersUp(citations, scored, settings.maxSpans());
        Map<String, Double> features =
                Confidence.features(best.score(), runnerUp, best.typeMatch(), type, shortAnswer, !conversation);
        Confidence.addPieces(features, pieces, chosen);
        double confidence = Confidence.of(features);
        context.trace().record(new ExtractiveEvent.Answer(shortAnswer.text(), confidence, citations.size(), features));
        if (shortAnswer.kind() != ShortAnswer.Kind.SENTENCE && confidence >= settings.shortAnswerConfidence()) {
            return new StrategyResult(
                    shortAnswer.text(), StrategyResult.EXTRACTIVE, citations, confidence, null, false);
        }
        return passages(context, settings, scored, candidates, chunks, shortAnswer, confidence);
    }

    /**
     * No short answer was found, or none certain enough to give: the answer is the best passages, with
     * the confidence that they hold what was asked. The withheld short answer stays in the trace.
     */
    private StrategyResult passages(
            QuestionContext context,
            Settings settings,
            List<SentenceScorer.Scored> scored,
            List<Candidate> candidates,
            Map<SearchHit.ChunkKey, SearchHit> chunks,
            ShortAnswer.Answer withheld,
            double withheldConfidence) {
        PassageAnswer.Passages found = PassageAnswer.of(
                context.question(), scored, candidates, chunks, settings.passages(), defaults.passageSentences());
        context.trace()
                .record(new ExtractiveEvent.PassageAnswer(
                        found.citations().size(),
                        found.confidence(),
                        found.features(),
                        withheld.text(),
                        withheldConfidence));
        return StrategyResult.passages(found.text(), found.citations(), found.confidence());
    }

    /**
     * The short answer and the sentence it comes from, with the pieces it was chosen among (none for a
     * yes or no).
     */
    private record Ranked(
            Candidate source, ShortAnswer.Answer answer, List<SpanRanker.Piece> pieces, SpanRanker.Piece chosen) {

        static Ranked yesOrNo(String question, Candidate best) {
            ShortAnswer.Answer answer = new ShortAnswer.Answer(
                    ClosedQuestions.yesOrNo(question, best.text()),
                    new io.lorekeeper.text.Span(0, best.text().length()),
                    true,
                    ShortAnswer.Kind.YES_NO);
            return new Ranked(best, answer, List.of(), null);
        }
    }

    /** The piece {@link SpanRanker} scores highest among those of the best sentences and, in texts, of second hops. */
    private static Ranked rank(
            QuestionContext context,
            AnswerType type,
            List<SentenceScorer.Scored> scored,
            List<Candidate> candidates,
            boolean conversation,
            java.util.function.Function<Candidate, Optional<Citation>> header) {
        String question = context.question();
        // a date is resolved against the day its sentence was said on: only a "when" needs the lookup
        List<SpanRanker.Offer> offers = new ArrayList<>(SpanRanker.offers(
                scored,
                c -> type == AnswerType.TIME
                        ? header.apply(c)
                                .flatMap(h -> TimeExpressions.sessionDate(h.quote()))
                                .orElse(null)
                        : null));
        if (!conversation) {
            offers.addAll(furtherOffers(question, type, scored, candidates));
        }
        List<SpanRanker.Piece> pieces = SpanRanker.pieces(question, type, offers, !conversation);
        SpanRanker.Piece chosen = SpanRanker.best(pieces);
        return new Ranked(chosen.sentence(), chosen.answer(), pieces, chosen);
    }

    /** Sentences beyond the best few that may hold the answer: those of the titled paragraphs a second hop reaches. */
    private static List<SpanRanker.Offer> furtherOffers(
            String question, AnswerType type, List<SentenceScorer.Scored> scored, List<Candidate> candidates) {
        Map<Candidate, Double> scores = new HashMap<>();
        Map<Candidate, Integer> ranks = new HashMap<>();
        for (int i = 0; i < scored.size(); i++) {
            scores.put(scored.get(i).candidate(), scored.get(i).score());
            ranks.put(scored.get(i).candidate(), i);
        }
        double best = scored.getFirst().score();
        List<SpanRanker.Offer> out = new ArrayList<>();
        SecondHop.sentences(question, scored.getFirst().candidate(), candidates, scores, HOP_SENTENCES)
                .forEach(c -> out.add(new SpanRanker.Offer(
                        c,
                        ranks.getOrDefault(c, scored.size()),
                        best <= 0 ? 0 : scores.getOrDefault(c, 0.0) / best,
                        null,
                        "hop")));
        return out;
    }

    /** Says in the trace why the answer's sentence is not the best one when a second hop led there. */
    private static void recordDetour(QuestionContext context, SpanRanker.Piece chosen, Candidate best) {
        if (chosen != null && "hop".equals(chosen.source())) {
            context.trace()
                    .record(new ExtractiveEvent.Hop(
                            best.text(), chosen.sentence().text()));
        }
    }

    private static void recordPieces(
            QuestionContext context, List<SpanRanker.Piece> pieces, SpanRanker.Piece chosen, boolean answered) {
        List<ExtractiveEvent.Piece> recorded = pieces.stream()
                .limit(MAX_RECORDED_PIECES)
                .map(p -> new ExtractiveEvent.Piece(
                        p.answer().text(), p.source(), round(p.score()), rounded(p.features())))
                .toList();
        int index = pieces.indexOf(chosen);
        context.trace()
                .record(new ExtractiveEvent.Candidates(recorded, index < MAX_RECORDED_PIECES ? index : -1, answered));
    }

    private static Map<String, Double> rounded(Map<String, Double> features) {
        Map<String, Double> out = new LinkedHashMap<>();
        features.forEach((k, v) -> out.put(k, round(v)));
        return out;
    }

    /** A question asking for several things is answered with items from several sentences, each cited. */
    private static ShortAnswer.Answer asList(
            QuestionContext context,
            AnswerType type,
            List<SentenceScorer.Scored> scored,
            ShortAnswer.Answer answer,
            List<Citation> citations,
            boolean prose) {
        if (answer.kind() == ShortAnswer.Kind.YES_NO
                || type == AnswerType.TIME
                || !ShortAnswer.asksForSeveral(context.question())) {
            return answer;
        }
        ListAnswer list = ListAnswer.of(context.question(), type, scored, answer, prose);
        if (list.sentences().size() <= 1) {
            return answer;
        }
        for (Candidate c : list.sentences().subList(1, list.sentences().size())) {
            citations.add(citation(c));
        }
        context.trace()
                .record(new ExtractiveEvent.Listed(
                        list.answer().text(), list.sentences().size()));
        return list.answer();
    }

    /** The runners-up nearly as good as the best sentence are cited too, up to {@code maxSpans} citations. */
    private static void addRunnersUp(List<Citation> citations, List<SentenceScorer.Scored> scored, int maxSpans) {
        double best = scored.getFirst().score();
        for (SentenceScorer.Scored s : scored.subList(1, scored.size())) {
            if (citations.size() >= maxSpans || s.score() < CITATION_RATIO * best) {
                break;
            }
            Citation c = citation(s.candidate());
            if (!citations.contains(c)) {
                citations.add(c);
            }
        }
    }

    /** Where the short answer came from: the sentence, the span inside it (absolute offsets), and whether it was rewritten. */
    private static ExtractiveEvent.Span span(Candidate sentence, ShortAnswer.Answer answer) {
        return new ExtractiveEvent.Span(
                answer.kind().name().toLowerCase(java.util.Locale.ROOT),
                answer.text(),
                sentence.span().start() + answer.span().start(),
                sentence.span().start() + answer.span().end(),
                answer.span().of(sentence.text()),
                answer.derived(),
                sentence.text());
    }

    /** The candidates' vectors, in their order, and how many were stored and how many had to be embedded. */
    private record Vectors(List<float[]> list, int stored, int embedded) {}

    /**
     * Each candidate's vector from the sentences memory; those it lacks (a document whose stage has not
     * run yet, a sentence it does not hold) are embedded now, as every question did before it existed.
     */
    private Vectors vectors(List<Candidate> candidates) {
        Map<UUID, List<io.lorekeeper.text.Span>> spans = new java.util.LinkedHashMap<>();
        candidates.forEach(c ->
                spans.computeIfAbsent(c.documentId(), d -> new ArrayList<>()).add(c.span()));
        Map<UUID, Map<io.lorekeeper.text.Span, float[]>> byDocument = new java.util.HashMap<>();
        spans.forEach((document, list) -> byDocument.put(document, stored.stored(document, Set.copyOf(list))));
        List<String> missing = candidates.stream()
                .filter(c -> !byDocument.get(c.documentId()).containsKey(c.span()))
                .map(Candidate::text)
                .toList();
        java.util.Iterator<float[]> embedded =
                embeddings.recentPassages(missing).iterator();
        List<float[]> out = new ArrayList<>(candidates.size());
        for (Candidate c : candidates) {
            float[] vector = byDocument.get(c.documentId()).get(c.span());
            out.add(vector != null ? vector : embedded.next());
        }
        return new Vectors(out, candidates.size() - missing.size(), missing.size());
    }

    private static Optional<Citation> sessionHeader(Retriever retriever, Candidate candidate) {
        return retriever
                .sessionHeader(candidate.documentId(), candidate.pageOrdinal())
                .map(h -> Citation.of(h.documentId(), h.start(), h.end(), h.text()));
    }

    static Citation citation(Candidate c) {
        return Citation.of(c.documentId(), c.span().start(), c.span().end(), c.text());
    }

    private static ExtractiveEvent.Scored describe(SentenceScorer.Scored s) {
        String text = s.candidate().text();
        return new ExtractiveEvent.Scored(
                s.candidate().span().start(),
                s.candidate().span().end(),
                round(s.score()),
                round(s.semantic()),
                round(s.lexical()),
                round(s.prior()),
                s.typeMatch(),
                text.length() > 240 ? text.substring(0, 240) + "…" : text);
    }

    private static List<ExtractiveEvent.Hit> summary(List<SearchHit> hits) {
        return hits.stream()
                .map(h ->
                        new ExtractiveEvent.Hit(h.documentId(), h.chunkOrdinal(), h.start(), h.end(), round(h.score())))
                .toList();
    }

    static double round(double d) {
        return Math.round(d * 10000) / 10000.0;
    }

    /** The first n of a ranking (all of it when shorter). */
    private static List<SearchHit> head(List<SearchHit> ranking, int n) {
        return ranking.subList(0, Math.min(n, ranking.size()));
    }

    /** Hits in rank order without repeats; later searches append below the earlier ones. */
    private static final class Hits {
        final List<SearchHit> list = new ArrayList<>();
        private final Map<SearchHit.ChunkKey, SearchHit> keys = new HashMap<>();

        Map<SearchHit.ChunkKey, SearchHit> chunks() {
            return keys;
        }

        List<SearchHit> addAll(List<SearchHit> more) {
            List<SearchHit> added = new ArrayList<>();
            for (SearchHit hit : more) {
                if (keys.putIfAbsent(hit.key(), hit) == null) {
                    list.add(hit);
                    added.add(hit);
                }
            }
            return added;
        }
    }
}
