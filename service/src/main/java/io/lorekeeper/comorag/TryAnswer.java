package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lorekeeper.comorag.ComoRagStore.Unit;
import io.lorekeeper.comorag.ComoRagStore.UnitKey;
import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.strategy.AnswerParts;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.SpanLocator;
import io.lorekeeper.strategy.StepEvent;
import io.lorekeeper.strategy.StrategyResult;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

/**
 * Try-Answer: the ANSWERER reads source passages, thematic and plot summaries and the fused
 * history, each within its share of the context, and either answers or signals that the evidence
 * does not settle the question. Its quotes become citations only where they are found in source
 * text: in the passage it named, in another passage it was shown, or, for a quote attributed to a
 * summary, in one of the units under that summary; summaries themselves are never cited. Every
 * attempt is kept, so that when no cycle succeeds the best-supported one can be returned.
 */
final class TryAnswer {

    static final String NOT_SETTLED = "The documents, as far as they were searched, do not settle this question.";
    /** Confidence of an answer the answerer itself did not commit to. */
    static final double UNCOMMITTED_CONFIDENCE = 0.25;

    private static final Pattern LABEL = Pattern.compile("([VSE])\\s*-?\\s*(\\d+)", Pattern.CASE_INSENSITIVE);

    private final QuestionContext context;
    private final ComoRagOptions options;
    private final ComoRagStore store;
    private final Function<UUID, String> texts;
    private final List<Outcome> attempts = new ArrayList<>();
    private final Map<String, Evidence> sourcesShown = new LinkedHashMap<>();

    TryAnswer(QuestionContext context, ComoRagOptions options, ComoRagStore store, Function<UUID, String> texts) {
        this.context = context;
        this.options = options;
        this.store = store;
        this.texts = texts;
    }

    /** One attempt: the verdict, and what of the reply could be used. */
    record Outcome(
            int cycle,
            boolean answered,
            String answer,
            Integer choice,
            List<Citation> citations,
            double confidence,
            PromptMarkup evidenceMarkup) {

        StrategyResult result(boolean budgetLimited) {
            return new StrategyResult(answer, StrategyResult.GENERATED, citations, confidence, choice, budgetLimited);
        }
    }

    Outcome attempt(int cycle, List<MetacognitiveLoop.Probed> found, String history) {
        return attempt(cycle, found, history, List.of());
    }

    /**
     * One try. With {@code tryAnswer: "memory"} and the memory units of this step (cycles after the
     * first), try-answer reads the encoded memory as Eq. 3 gives it: each unit's cue, naming the
     * items it was written from, with those items; a layer's cues count against that layer's share
     * of the context, and its evidence fills the rest. Quotes are still taken from the items, so
     * source passages stay citable.
     */
    Outcome attempt(int cycle, List<MetacognitiveLoop.Probed> found, String history, List<MemoryUnit> units) {
        boolean memory = options.tryAnswer().equals(ComoRagOptions.MEMORY) && cycle > 0 && !units.isEmpty();
        Shown shown = show(found, memory ? cued(units) : List.of(), history);
        shown.veridical().forEach(item -> sourcesShown.putIfAbsent(item.id(), item));
        Replies.Attempt reply = ask(cycle, shown.variables(context));

        List<Citation> citations = new ArrayList<>();
        List<ComoRagEvent.Support> supports = new ArrayList<>();
        for (Replies.Attempt.Support support : reply.supports()) {
            Located located = locate(support, shown.veridical(), shown.semantic(), shown.episodic());
            located.citation().ifPresent(citations::add);
            supports.add(
                    new ComoRagEvent.Support(support.item(), located.citation().isPresent(), located.where()));
        }
        Integer choice = AnswerParts.validChoice(context, reply.choice());
        String text = reply.answer() == null ? "" : reply.answer().strip();
        boolean usable = context.isMultipleChoice() ? choice != null : !text.isEmpty() && !text.equals("*");
        boolean answered = reply.committed() && usable;
        String answer = choice != null ? context.choices().get(choice) : text;
        Outcome outcome = new Outcome(
                cycle,
                answered,
                usable ? answer : "",
                usable ? choice : null,
                List.copyOf(citations),
                reply.confidenceValue(),
                shown.evidenceMarkup());
        attempts.add(outcome);
        context.trace()
                .record(new ComoRagEvent.Attempt(
                        cycle,
                        answered ? "answered" : "failed",
                        reply.committed(),
                        text,
                        choice,
                        reply.confidenceValue(),
                        reply.analysis() == null ? "" : reply.analysis(),
                        supports,
                        citations.size(),
                        memory ? ComoRagOptions.MEMORY : ComoRagOptions.EVIDENCE,
                        shown.cued().stream().map(MemoryUnit::id).toList(),
                        shown.trace()));
        return outcome;
    }

    /** The units of this step with a cue to read. */
    private static List<MemoryUnit> cued(List<MemoryUnit> units) {
        return units.stream().filter(u -> u.cue() != null && !u.cue().isBlank()).toList();
    }

    /** What a try shows the answerer: each layer's items, the step's cues over them and the fused history. */
    private record Shown(
            List<Evidence> veridical,
            List<Evidence> semantic,
            List<Evidence> episodic,
            List<MemoryUnit> cued,
            String history) {

        Map<String, Object> variables(QuestionContext context) {
            Map<String, Object> vars = new LinkedHashMap<>(AnswerParts.choiceVariables(context));
            vars.put("veridical", Prompts.evidence(veridical, "V"));
            vars.put("semantic", Prompts.evidence(semantic, "S"));
            vars.put("episodic", Prompts.evidence(episodic, "E"));
            vars.put("findings", findings(cued, veridical, semantic, episodic));
            vars.put("history", history.isBlank() ? "(none yet)" : history);
            vars.put("question", context.question());
            return vars;
        }

        /** The layers' items as the answerer read them, for a later probe written from this try. */
        PromptMarkup evidenceMarkup() {
            return PromptMarkup.of(Prompts.evidence(veridical, "V").text() + "\n\n"
                    + Prompts.evidence(semantic, "S").text() + "\n\n"
                    + Prompts.evidence(episodic, "E").text());
        }

        ComoRagEvent.Shown trace() {
            return new ComoRagEvent.Shown(
                    veridical.stream().map(Evidence::id).toList(),
                    semantic.stream().map(Evidence::id).toList(),
                    episodic.stream().map(Evidence::id).toList(),
                    new ComoRagEvent.Shares(
                            tokens(veridical), tokens(semantic), tokens(episodic), TokenCounter.count(history)));
        }
    }

    /** Each layer's items within its share of the context, less what this step's cues of that layer take. */
    private Shown show(List<MetacognitiveLoop.Probed> found, List<MemoryUnit> cued, String history) {
        return new Shown(
                pick(found, ComoRagOptions.VERIDICAL, cueTokens(cued, ComoRagOptions.VERIDICAL)),
                pick(found, ComoRagOptions.SEMANTIC, cueTokens(cued, ComoRagOptions.SEMANTIC)),
                pick(found, ComoRagOptions.EPISODIC, cueTokens(cued, ComoRagOptions.EPISODIC)),
                cued,
                truncate(history, options.historyTokens()));
    }

    /** The answerer's reply; one with nothing usable (or cut with nothing complete) is a failed try. */
    private Replies.Attempt ask(int cycle, Map<String, Object> vars) {
        try {
            return context.llm()
                    .structuredOrText(
                            Role.ANSWERER,
                            MetacognitiveLoop.ANSWER,
                            vars,
                            Replies.Attempt.class,
                            text -> Replies.Attempt.fromPlainText(
                                    text, context.choices().size()));
        } catch (UnusableReplyException unusable) {
            // nothing usable: this try failed, and the loop goes on as after any failure
            context.trace().record(new StepEvent.Failed("try-answer", cycle, unusable.getMessage()));
            return new Replies.Attempt(null, null, false, "", null, List.of(), 0.0);
        }
    }

    /**
     * When no attempt succeeded: the attempt with an answer that has at least one citation found in
     * the source (most confident first, later cycles on ties), with low confidence; otherwise an
     * explicit "not settled", never an unsupported answer.
     */
    StrategyResult bestSupported(boolean budgetLimited) {
        return supported(budgetLimited)
                .orElse(new StrategyResult(NOT_SETTLED, StrategyResult.GENERATED, List.of(), 0.0, null, budgetLimited));
    }

    /** The best attempt with an answer that has a citation found in the source, with low confidence; if any. */
    Optional<StrategyResult> supported(boolean budgetLimited) {
        return attempts.stream()
                .filter(o -> !o.answer().isEmpty() && !o.citations().isEmpty())
                .max(Comparator.comparingDouble(Outcome::confidence).thenComparingInt(Outcome::cycle))
                .map(o -> new StrategyResult(
                        o.answer(),
                        StrategyResult.GENERATED,
                        o.citations(),
                        Math.min(o.confidence(), UNCOMMITTED_CONFIDENCE),
                        o.choice(),
                        budgetLimited));
    }

    /** The answers the tries gave without committing to them, latest first, each once. */
    List<String> tentativeAnswers() {
        return attempts.reversed().stream()
                .map(Outcome::answer)
                .filter(a -> !a.isEmpty())
                .distinct()
                .toList();
    }

    /** Every source passage a try was shown, in the order first shown. */
    List<Evidence> sourcesShown() {
        return List.copyOf(sourcesShown.values());
    }

    /** A layer's items of every probe of the step, taken in turns, within the layer's share of the context. */
    private List<Evidence> pick(List<MetacognitiveLoop.Probed> found, String layer, int cueTokens) {
        List<List<Evidence>> lists = found.stream()
                .map(p -> p.layers().get(layer))
                .filter(r -> r != null)
                .map(TriRetriever.LayerResult::items)
                .toList();
        return TriRetriever.interleave(lists, Math.max(0, options.tokensFor(layer) - cueTokens));
    }

    private static int cueTokens(List<MemoryUnit> units, String layer) {
        return units.stream()
                .filter(u -> u.layer().equals(layer))
                .mapToInt(u -> TokenCounter.count(u.cue()))
                .sum();
    }

    /**
     * The cues of this step's memory units, each with the probe it answered and the labels of the
     * items it was written from that are shown (V2, S1...).
     */
    static PromptMarkup findings(
            List<MemoryUnit> units, List<Evidence> veridical, List<Evidence> semantic, List<Evidence> episodic) {
        if (units.isEmpty()) {
            return PromptMarkup.of("(none)");
        }
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 0; i < veridical.size(); i++) {
            labels.put(veridical.get(i).id(), "V" + (i + 1));
        }
        for (int i = 0; i < semantic.size(); i++) {
            labels.put(semantic.get(i).id(), "S" + (i + 1));
        }
        for (int i = 0; i < episodic.size(); i++) {
            labels.put(episodic.get(i).id(), "E" + (i + 1));
        }
        StringBuilder out = new StringBuilder();
        for (MemoryUnit u : units) {
            String items = u.evidence().stream()
                    .map(e -> labels.get(e.id()))
                    .filter(l -> l != null)
                    .collect(java.util.stream.Collectors.joining(" "));
            out.append("<finding probe=\"")
                    .append(PromptMarkup.data(u.probe().replace("\"", "'")))
                    .append("\" layer=\"")
                    .append(u.layer())
                    .append("\" items=\"")
                    .append(items.isEmpty() ? "none shown" : items)
                    .append("\">\n")
                    .append(PromptMarkup.data(u.cue().strip()))
                    .append("\n</finding>\n\n");
        }
        return PromptMarkup.of(out.toString().stripTrailing());
    }

    private record Located(Optional<Citation> citation, String where) {}

    private Located locate(
            Replies.Attempt.Support support,
            List<Evidence> veridical,
            List<Evidence> semantic,
            List<Evidence> episodic) {
        Evidence named = named(support.item(), veridical, semantic, episodic);
        if (named != null && !named.isSource()) {
            // a summary's words are the model's; cite them only where a unit under it says them
            for (Unit unit : store.units(named.units().stream()
                    .map(u -> new UnitKey(named.documentId(), u))
                    .toList())) {
                String text = unit.span().of(texts.apply(unit.documentId()));
                Optional<Span> found =
                        SpanLocator.locate(support.quote(), text, unit.span().start());
                if (found.isPresent()) {
                    return new Located(
                            Optional.of(Citation.of(
                                    unit.documentId(),
                                    found.get().start(),
                                    found.get().end(),
                                    support.quote().strip())),
                            "a unit under the named summary");
                }
            }
        }
        if (veridical.isEmpty()) {
            return new Located(Optional.empty(), "no source passage was shown");
        }
        int index = named != null && named.isSource() ? veridical.indexOf(named) : -1;
        List<SearchHit> shown = veridical.stream()
                .map(e -> new SearchHit(
                        e.documentId(),
                        e.units().getFirst(),
                        e.pageOrdinal(),
                        e.span().start(),
                        e.span().end(),
                        e.text(),
                        List.of(),
                        List.of(),
                        e.score()))
                .toList();
        AnswerParts.Quoted quoted = AnswerParts.quotedIn(shown, index, support.quote());
        if (!quoted.located()) {
            return new Located(Optional.empty(), "not found in any source passage shown");
        }
        boolean inNamed = index >= 0
                && veridical
                        .get(index)
                        .span()
                        .contains(new Span(
                                quoted.citation().start(), quoted.citation().end()));
        return new Located(Optional.of(quoted.citation()), inNamed ? "the named passage" : "another source passage");
    }

    /** The item a label such as {@code V2} or {@code [E1]} names, or null. */
    private static Evidence named(
            String item, List<Evidence> veridical, List<Evidence> semantic, List<Evidence> episodic) {
        Matcher label = LABEL.matcher(item);
        if (!label.find()) {
            return null;
        }
        int index = Integer.parseInt(label.group(2)) - 1;
        List<Evidence> items = switch (Character.toUpperCase(label.group(1).charAt(0))) {
            case 'V' -> veridical;
            case 'S' -> semantic;
            default -> episodic;
        };
        return index >= 0 && index < items.size() ? items.get(index) : null;
    }

    private static int tokens(List<Evidence> items) {
        return items.stream().mapToInt(Evidence::tokens).sum();
    }

    /** The text cut at a line or word boundary so that it fits {@code maxTokens}. */
    static String truncate(String text, int maxTokens) {
        if (text == null || text.isBlank() || maxTokens <= 0) {
            return "";
        }
        if (TokenCounter.count(text) <= maxTokens) {
            return text;
        }
        int end = text.length();
        while (end > 0 && TokenCounter.count(text.substring(0, end)) > maxTokens - 1) {
            end = (int) (end * 0.9);
        }
        int space = text.lastIndexOf(' ', end);
        return text.substring(0, space > 0 ? space : end).stripTrailing() + "…";
    }
}
