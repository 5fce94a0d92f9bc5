package io.lorekeeper.extractive;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.memory.Embeddings;
import io.lorekeeper.memory.SentenceVectors;
import io.lorekeeper.retrieval.Retriever;
import io.lorekeeper.retrieval.SearchHit;
import io.lorekeeper.strategy.AnswerStrategy;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.QuestionOptions;
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
class ExtractiveStrategy implements AnswerStrategy {

    static final String NAME = "extractive";
    /** Runners-up are cited only when nearly as good as the answer; weaker ones would be noise. */
    private static final double CITATION_RATIO = 0.92;

    private static final Set<String> OPTIONS = Set.of("k", "hops", "maxSpans", "maxSentences");

    private final Embeddings embeddings;
    private final SentenceVectors stored;

    ExtractiveStrategy(Embeddings embeddings, SentenceVectors stored) {
        this.embeddings = embeddings;
        this.stored = stored;
    }

    private record Settings(int k, int hops, int maxSpans, int maxSentences) {
        static Settings of(QuestionOptions options) {
            options.allowOnly(OPTIONS);
            return new Settings(
                    options.intValue("k", 12, 1, 50),
                    options.intValue("hops", 1, 0, 3),
                    options.intValue("maxSpans", 3, 1, 10),
                    options.intValue("maxSentences", 400, 10, 2000));
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public StrategyRequirements requirements() {
        return new StrategyRequirements(
                false, Set.of(), "verbatim source sentences chosen by hybrid retrieval and sentence scoring; no LLM");
    }

    @Override
    public void validate(QuestionOptions options) {
        Settings.of(options);
    }

    @Override
    public StrategyResult answer(QuestionContext context) {
        Settings settings = Settings.of(context.options());
        String question = context.question();
        Retriever retriever = context.retriever();
        List<UUID> ids = context.documentIds();
        Map<UUID, DocumentKind> kinds =
                context.documents().stream().collect(Collectors.toMap(DocumentInfo::id, DocumentInfo::kind));

        Hits hits = new Hits();
        hits.addAll(retriever.hybrid(ids, question, settings.k()));
        context.trace().record("retrieve", Map.of("query", question, "mode", "hybrid", "hits", summary(hits.list)));
        // Widen recall below the fused list: a chunk that only one retriever ranks well (a rare
        // word BM25 loves, a paraphrase only the embedding sees) still gets its sentences scored.
        List<SearchHit> keywordOnly = hits.addAll(retriever.keyword(ids, question, 2 * settings.k()));
        List<SearchHit> vectorOnly = hits.addAll(retriever.vector(ids, question, 2 * settings.k()));
        context.trace()
                .record(
                        "retrieve",
                        Map.of(
                                "query",
                                question,
                                "mode",
                                "keyword+vector",
                                "hits",
                                summary(keywordOnly),
                                "vectorHits",
                                summary(vectorOnly)));

        int followUpK = Math.max(3, settings.k() / 2);
        for (int hop = 0; hop < settings.hops(); hop++) {
            List<String> entities =
                    BridgeEntities.from(hits.list.subList(0, Math.min(3, hits.list.size())), question, 2);
            List<SearchHit> found = new ArrayList<>();
            for (String entity : entities) {
                found.addAll(hits.addAll(retriever.hybrid(ids, question + " " + entity, followUpK)));
            }
            context.trace().record("bridge", Map.of("hop", hop + 1, "entities", entities, "newHits", summary(found)));
            if (entities.isEmpty()) {
                break;
            }
        }
        for (String choice : context.choices()) {
            List<SearchHit> found = hits.addAll(retriever.hybrid(ids, question + " " + choice, followUpK));
            context.trace()
                    .record(
                            "retrieve",
                            Map.of("query", question + " " + choice, "mode", "hybrid", "hits", summary(found)));
        }
        context.cancellation().throwIfCancelled();

        List<Candidate> candidates = CandidateSentences.from(hits.list, kinds::get);
        if (candidates.size() > settings.maxSentences()) {
            candidates = candidates.subList(0, settings.maxSentences());
        }
        if (candidates.isEmpty()) {
            context.trace().record("answer", Map.of("reason", "nothing retrieved"));
            return new StrategyResult("", StrategyResult.EXTRACTIVE, List.of(), 0.0, null, false);
        }
        Vectors found = vectors(candidates);
        List<float[]> vectors = found.list();
        AnswerType type = AnswerType.of(question);
        List<SentenceScorer.Scored> scored =
                SentenceScorer.score(question, type, candidates, vectors, embeddings.query(question));
        context.trace()
                .record(
                        "sentences",
                        Map.of(
                                "answerType",
                                type.name().toLowerCase(),
                                "candidates",
                                candidates.size(),
                                "storedVectors",
                                found.stored(),
                                "embeddedVectors",
                                found.embedded(),
                                "top",
                                scored.stream()
                                        .limit(8)
                                        .map(ExtractiveStrategy::describe)
                                        .toList()));

        if (context.isMultipleChoice()) {
            return choose(context, candidates, vectors);
        }
        List<String> alternatives = ClosedQuestions.alternatives(question);
        if (!alternatives.isEmpty()) {
            return alternative(context, alternatives, scored, candidates, vectors);
        }
        SentenceScorer.Scored best = scored.getFirst();
        double runnerUp = scored.size() > 1 ? scored.get(1).score() : 0;
        boolean conversation = kinds.get(best.candidate().documentId()) == DocumentKind.CONVERSATION;
        java.util.Optional<Citation> header =
                conversation ? sessionHeader(retriever, best.candidate()) : java.util.Optional.empty();
        LocalDate said =
                header.flatMap(h -> TimeExpressions.sessionDate(h.quote())).orElse(null);
        ShortAnswer.Answer shortAnswer = ClosedQuestions.isYesNo(question)
                ? new ShortAnswer.Answer(
                        ClosedQuestions.yesOrNo(question, best.candidate().text()),
                        new io.lorekeeper.text.Span(0, best.candidate().text().length()),
                        true,
                        ShortAnswer.Kind.YES_NO)
                : ShortAnswer.of(question, type, best.candidate().text(), said);
        Candidate source = best.candidate();
        List<Citation> citations = new ArrayList<>();
        java.util.Optional<DescribedSubject.Found> described =
                !conversation && (type == AnswerType.OTHER || type == AnswerType.PERSON)
                        ? DescribedSubject.in(question, scored)
                        : java.util.Optional.empty();
        if (described.isPresent() && shortAnswer.kind() != ShortAnswer.Kind.YES_NO) {
            source = described.get().sentence();
            shortAnswer = described.get().answer();
            citations.add(citation(source));
            context.trace().record("described", Map.of("evidence", source.text()));
        } else if (!conversation && shortAnswer.kind() != ShortAnswer.Kind.YES_NO) {
            Map<Candidate, Double> scores = new java.util.HashMap<>();
            scored.forEach(s -> scores.put(s.candidate(), s.score()));
            java.util.Optional<SecondHop.Hop> hop =
                    SecondHop.follow(question, type, best.candidate(), candidates, scores);
            if (hop.isPresent()) {
                source = hop.get().evidence();
                shortAnswer = hop.get().answer();
                citations.add(citation(source));
                context.trace().record("hop", Map.of("bridge", best.candidate().text(), "evidence", source.text()));
            }
        }
        context.trace().record("span", span(source, shortAnswer));
        Citation first = citation(best.candidate());
        if (!citations.contains(first)) {
            citations.add(first);
        }
        if (type == AnswerType.TIME && header.isPresent()) {
            citations.add(header.get()); // a resolved "yesterday" needs the date it was said on beside it
        }
        if (shortAnswer.kind() != ShortAnswer.Kind.YES_NO
                && type != AnswerType.TIME
                && ShortAnswer.asksForSeveral(question)) {
            ListAnswer list = ListAnswer.of(question, type, scored, shortAnswer);
            if (list.sentences().size() > 1) {
                shortAnswer = list.answer();
                for (Candidate c : list.sentences().subList(1, list.sentences().size())) {
                    citations.add(citation(c));
                }
                context.trace()
                        .record(
                                "list",
                                Map.of(
                                        "items",
                                        list.answer().text(),
                                        "sentences",
                                        list.sentences().size()));
            }
        }
        for (SentenceScorer.Scored s : scored.subList(1, scored.size())) {
            if (citations.size() >= settings.maxSpans() || s.score() < CITATION_RATIO * best.score()) {
                break;
            }
            Citation c = citation(s.candidate());
            if (!citations.contains(c)) {
                citations.add(c);
            }
        }
        Map<String, Double> features =
                Confidence.features(best.score(), runnerUp, best.typeMatch(), type, shortAnswer, !conversation);
        double confidence = Confidence.of(features);
        context.trace()
                .record(
                        "answer",
                        Map.of(
                                "answer",
                                shortAnswer.text(),
                                "confidence",
                                confidence,
                                "citations",
                                citations.size(),
                                "confidenceFeatures",
                                features));
        return new StrategyResult(shortAnswer.text(), StrategyResult.EXTRACTIVE, citations, confidence, null, false);
    }

    /** Where the short answer came from: the sentence, the span inside it (absolute offsets), and whether it was rewritten. */
    private static Map<String, Object> span(Candidate sentence, ShortAnswer.Answer answer) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", answer.kind().name().toLowerCase(java.util.Locale.ROOT));
        m.put("answer", answer.text());
        m.put("start", sentence.span().start() + answer.span().start());
        m.put("end", sentence.span().start() + answer.span().end());
        m.put("source", answer.span().of(sentence.text()));
        m.put("derived", answer.derived());
        m.put("sentence", sentence.text());
        return m;
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

    private StrategyResult choose(QuestionContext context, List<Candidate> candidates, List<float[]> vectors) {
        ChoicePicker.Pick pick =
                ChoicePicker.pick(context.question(), context.choices(), candidates, vectors, embeddings);
        Map<String, Object> supports = new LinkedHashMap<>();
        for (int i = 0; i < context.choices().size(); i++) {
            supports.put(context.choices().get(i), round(pick.supports()[i]));
        }
        context.trace()
                .record(
                        "choices",
                        Map.of(
                                "supports",
                                supports,
                                "chosen",
                                pick.choice(),
                                "evidence",
                                pick.evidence().text()));
        return new StrategyResult(
                context.choices().get(pick.choice()),
                StrategyResult.EXTRACTIVE,
                List.of(citation(pick.evidence())),
                pick.confidence(),
                pick.choice(),
                false);
    }

    /**
     * "Who is older, A or B?": the question's own alternatives are the choices. A comparison in time
     * is decided by the year each alternative's best sentence gives (a birth or founding date);
     * otherwise, or when a year is missing, by which alternative the evidence supports best. The
     * answer is the alternative's text, cited from the sentence that decided it.
     */
    private StrategyResult alternative(
            QuestionContext context,
            List<String> alternatives,
            List<SentenceScorer.Scored> scored,
            List<Candidate> candidates,
            List<float[]> vectors) {
        int direction = ClosedQuestions.timeDirection(context.question());
        if (direction != 0) {
            Candidate[] evidence = new Candidate[alternatives.size()];
            Integer[] years = new Integer[alternatives.size()];
            for (int i = 0; i < alternatives.size(); i++) {
                String name = alternatives.get(i).toLowerCase(java.util.Locale.ROOT);
                for (SentenceScorer.Scored s : scored) {
                    java.util.Optional<Integer> year =
                            ClosedQuestions.firstYear(s.candidate().text());
                    if (s.candidate().text().toLowerCase(java.util.Locale.ROOT).contains(name) && year.isPresent()) {
                        evidence[i] = s.candidate();
                        years[i] = year.get();
                        break;
                    }
                }
            }
            if (years[0] != null && years[1] != null && !years[0].equals(years[1])) {
                int chosen = (years[0] < years[1]) == (direction < 0) ? 0 : 1;
                context.trace()
                        .record(
                                "choices",
                                Map.of(
                                        "alternatives",
                                        alternatives,
                                        "years",
                                        List.of(years[0], years[1]),
                                        "chosen",
                                        alternatives.get(chosen)));
                Map<String, Double> features = Map.of("kind_choice", 1.0, "typeMatch", 1.0);
                double confidence = Confidence.of(features);
                // recorded like every other answer's, so that a fit sees how often a decision by years is right
                context.trace()
                        .record(
                                "answer",
                                Map.of(
                                        "answer",
                                        alternatives.get(chosen),
                                        "confidence",
                                        confidence,
                                        "citations",
                                        2,
                                        "confidenceFeatures",
                                        features));
                return new StrategyResult(
                        alternatives.get(chosen),
                        StrategyResult.EXTRACTIVE,
                        List.of(citation(evidence[0]), citation(evidence[1])),
                        confidence,
                        null,
                        false);
            }
        }
        ChoicePicker.Pick pick = ChoicePicker.pick(context.question(), alternatives, candidates, vectors, embeddings);
        context.trace()
                .record(
                        "choices",
                        Map.of(
                                "alternatives",
                                alternatives,
                                "chosen",
                                alternatives.get(pick.choice()),
                                "evidence",
                                pick.evidence().text()));
        return new StrategyResult(
                alternatives.get(pick.choice()),
                StrategyResult.EXTRACTIVE,
                List.of(citation(pick.evidence())),
                pick.confidence(),
                null,
                false);
    }

    private static java.util.Optional<Citation> sessionHeader(Retriever retriever, Candidate candidate) {
        return retriever
                .sessionHeader(candidate.documentId(), candidate.pageOrdinal())
                .map(h -> Citation.of(h.documentId(), h.start(), h.end(), h.text()));
    }

    private static Citation citation(Candidate c) {
        return Citation.of(c.documentId(), c.span().start(), c.span().end(), c.text());
    }

    private static Map<String, Object> describe(SentenceScorer.Scored s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("start", s.candidate().span().start());
        m.put("end", s.candidate().span().end());
        m.put("score", round(s.score()));
        m.put("semantic", round(s.semantic()));
        m.put("lexical", round(s.lexical()));
        m.put("prior", round(s.prior()));
        m.put("typeMatch", s.typeMatch());
        m.put(
                "text",
                s.candidate().text().length() > 240
                        ? s.candidate().text().substring(0, 240) + "…"
                        : s.candidate().text());
        return m;
    }

    private static List<Map<String, Object>> summary(List<SearchHit> hits) {
        return hits.stream()
                .map(h -> Map.<String, Object>of(
                        "documentId",
                        h.documentId(),
                        "chunk",
                        h.chunkOrdinal(),
                        "start",
                        h.start(),
                        "end",
                        h.end(),
                        "score",
                        round(h.score())))
                .toList();
    }

    private static double round(double d) {
        return Math.round(d * 10000) / 10000.0;
    }

    /** Hits in rank order without repeats; later searches append below the earlier ones. */
    private static final class Hits {
        final List<SearchHit> list = new ArrayList<>();
        private final Set<SearchHit.ChunkKey> keys = new HashSet<>();

        List<SearchHit> addAll(List<SearchHit> more) {
            List<SearchHit> added = new ArrayList<>();
            for (SearchHit hit : more) {
                if (keys.add(hit.key())) {
                    list.add(hit);
                    added.add(hit);
                }
            }
            return added;
        }
    }
}
