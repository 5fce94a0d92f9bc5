package io.lorekeeper.memcot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.ContextLimit;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.strategy.AnswerParts;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.LastResort;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.StepEvent;
import io.lorekeeper.strategy.StrategyResult;
import io.lorekeeper.text.TokenCounter;

/**
 * Answers from the short-term memory, or, when the judge never said the memory was enough, from the
 * whole conversation as the authors' code does (not in the paper; {@code wholeDocumentFallback}). The
 * whole reading is bounded: it is taken only when every unit of the documents fits the answerer's
 * context window and the token budget, and the trace says why it was not otherwise; then, as with the
 * option off, the responder answers from the memory with its confidence capped. A loop stopped by its
 * budget answers from the memory (the responder uses the part of the budget kept for the answer, so it
 * still answers, budget-limited). With an empty memory and no fallback the responder reads the
 * question's best passages instead (top-K hybrid hits), its confidence capped. A responder reply with
 * nothing usable is answered by the last resort: one plain call over the same units. Only when the
 * budget refuses even the answer is the evidence itself the answer, verbatim.
 */
final class Responder {

    /** The most confidence an answer gets when the judge never said the memory was enough. */
    static final double UNSURE_CONFIDENCE = 0.3;

    private static final int FALLBACK_UNITS = 3;

    /** Tokens of the answer prompt besides the passages: its instructions, the notes and the question. */
    static final int PROMPT_ALLOWANCE = 2_000;

    private final QuestionContext context;
    private final MemCotSettings settings;
    private final Units units;
    private final ContextLimit answerer;

    Responder(QuestionContext context, MemCotSettings settings, Units units, ContextLimit answerer) {
        this.context = context;
        this.settings = settings;
        this.units = units;
        this.answerer = answerer;
    }

    /** Every unit of the documents, rendered, when that is what the responder reads; or why not. */
    private record Whole(List<Unit> units, PromptMarkup rendered, String refused) {}

    StrategyResult answer(MemCotLoop.Outcome outcome) {
        List<Unit> remembered = units.inDocumentOrder(outcome.memory().evidence());
        boolean unsure = outcome.stop() != MemCotLoop.Stop.ANSWERABLE;
        Whole whole = unsure && outcome.stop() != MemCotLoop.Stop.BUDGET && settings.wholeDocumentFallback()
                ? wholeDocuments()
                : null;
        boolean wholeDocument = whole != null && whole.refused() == null;
        // an empty memory: the responder reads the question's best passages rather than answer from nothing
        boolean retrieved = !wholeDocument && remembered.isEmpty();
        List<Unit> evidence = wholeDocument ? whole.units() : retrieved ? bestPassages() : remembered;
        PromptMarkup memory = wholeDocument ? whole.rendered() : units.render(evidence, "(no evidence was found)");
        context.trace()
                .record(new MemCotEvent.Context(
                        outcome.steps(),
                        outcome.stop().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
                        evidence.stream().map(Unit::summary).toList(),
                        TokenCounter.count(memory.text()),
                        retrieved,
                        wholeDocument,
                        whole == null ? null : whole.refused()));
        if (evidence.isEmpty()) {
            return lastResort(outcome, evidence, "the short-term memory is empty and retrieval found nothing");
        }
        MemCotAnswer reply;
        try {
            reply = context.llm()
                    .answering()
                    .atTemperature(settings.responderTemperature())
                    .structuredOrText(
                            Role.ANSWERER,
                            "memcot/answer",
                            variables(outcome, memory, retrieved, wholeDocument),
                            MemCotAnswer.class,
                            MemCotAnswer::fromProse);
        } catch (BudgetExhaustedException spent) {
            context.trace().record(new StepEvent.BudgetSpent("answer", spent.getMessage()));
            return fromMemory(outcome, spent);
        } catch (UnusableReplyException unusable) {
            context.trace().record(new StepEvent.Failed("responder", unusable.getMessage()));
            return lastResort(outcome, evidence, "the responder's reply was unusable: " + unusable.getMessage());
        }
        return answered(outcome, evidence, retrieved, wholeDocument, reply);
    }

    /**
     * Every unit of the question's documents in order, when they fit: their tokens (as counted at
     * ingestion, then as rendered) within the answerer's prompt less {@link #PROMPT_ALLOWANCE}, and
     * within what is left of the token budget.
     */
    private Whole wholeDocuments() {
        long counted = context.documents().stream()
                .mapToLong(io.lorekeeper.document.DocumentInfo::tokenCount)
                .sum();
        long room = (long) answerer.promptTokens() - PROMPT_ALLOWANCE;
        if (counted > room) {
            return tooLarge(counted, room);
        }
        List<Unit> all = new ArrayList<>();
        for (java.util.UUID id : context.documentIds()) {
            context.retriever().chunks(id, 0, Integer.MAX_VALUE).stream()
                    .map(units::of)
                    .forEach(all::add);
        }
        PromptMarkup rendered = units.render(all, "(the documents are empty)");
        int tokens = TokenCounter.count(rendered.text());
        if (tokens > room) {
            return tooLarge(tokens, room);
        }
        io.lorekeeper.llm.Budget budget = context.llm().budget();
        if (budget.tokens() + tokens + PROMPT_ALLOWANCE > budget.maxTokens()) {
            return new Whole(
                    List.of(),
                    null,
                    "the whole document's " + tokens + " tokens would pass the token budget (" + budget.tokens()
                            + " of " + budget.maxTokens() + " spent)");
        }
        return new Whole(units.inDocumentOrder(all), rendered, null);
    }

    private Whole tooLarge(long tokens, long room) {
        return new Whole(
                List.of(),
                null,
                "the whole document's " + tokens + " tokens do not fit the " + room + " the answerer's profile '"
                        + answerer.profile() + "' can read (context-window " + answerer.contextWindow() + " less "
                        + answerer.maxOutputTokens() + " for the reply and " + PROMPT_ALLOWANCE
                        + " for the instructions)");
    }

    /** The reply's answer, its confidence capped when the loop ended unsure, cited by the evidence it names. */
    private StrategyResult answered(
            MemCotLoop.Outcome outcome,
            List<Unit> evidence,
            boolean retrieved,
            boolean wholeDocument,
            MemCotAnswer reply) {
        List<Citation> citations = new ArrayList<>();
        List<MemCotEvent.Checked> checked = new ArrayList<>();
        for (MemCotAnswer.Evidence item : reply.evidence()) {
            Unit unit = units.select(List.of(item.id()), evidence).units().stream()
                    .findFirst()
                    .orElse(null);
            Cited cited = cite(unit, item.quote(), evidence);
            checked.add(new MemCotEvent.Checked(item.id(), unit != null, cited.quoteFound()));
            citations.addAll(cited.citations());
        }
        Integer choice = AnswerParts.validChoice(context, reply.choice());
        String answer = choice != null ? context.choices().get(choice) : reply.answer();
        // The whole document holds whatever the memory missed: its answer is not capped.
        boolean unsure = !wholeDocument && (retrieved || outcome.stop() != MemCotLoop.Stop.ANSWERABLE);
        double confidence = unsure ? Math.min(reply.confidence(), UNSURE_CONFIDENCE) : reply.confidence();
        context.trace()
                .record(new MemCotEvent.Answer(
                        answer, confidence, unsure && reply.confidence() > UNSURE_CONFIDENCE, checked, null, null));
        return new StrategyResult(
                answer, StrategyResult.GENERATED, citations, confidence, choice, outcome.budgetLimited());
    }

    /**
     * The words the model quoted, located in the unit it named and then in the other units of the
     * memory; the named unit as a whole when the words are nowhere (the model still said that unit
     * is what the answer rests on); nothing when it named no unit and quoted nothing that can be found.
     */
    private record Cited(List<Citation> citations, boolean quoteFound) {}

    private static Cited cite(Unit named, String quote, List<Unit> evidence) {
        if (quote != null && !quote.isBlank()) {
            AnswerParts.Quoted quoted =
                    AnswerParts.quotedIn(evidence.stream().map(Unit::hit).toList(), evidence.indexOf(named), quote);
            if (quoted.located()) {
                return new Cited(List.of(quoted.citation()), true);
            }
        }
        return new Cited(named == null ? List.of() : named.citations(), false);
    }

    /** The question's top-K hybrid hits, as units in document order: the evidence when the memory is empty. */
    private List<Unit> bestPassages() {
        List<Unit> found = new ArrayList<>();
        context.retriever().hybrid(context.documentIds(), context.question(), settings.k()).stream()
                .map(units::of)
                .filter(u -> !found.contains(u))
                .forEach(found::add);
        return units.inDocumentOrder(found);
    }

    private Map<String, Object> variables(
            MemCotLoop.Outcome outcome, PromptMarkup memory, boolean retrieved, boolean wholeDocument) {
        Map<String, Object> vars = new LinkedHashMap<>(AnswerParts.choiceVariables(context));
        vars.put("question", context.question());
        vars.put("memory", memory);
        String notes =
                outcome.lastThinking().isBlank() ? "" : "The search's last assessment: " + outcome.lastThinking();
        if (wholeDocument) {
            notes = (notes
                            + "\nThe search stopped before its judge found the evidence sufficient, so the evidence is the whole document.")
                    .strip();
        } else if (retrieved) {
            notes = (notes + "\nThe search kept no evidence; these are the passages that match the question best.")
                    .strip();
        } else if (outcome.stop() != MemCotLoop.Stop.ANSWERABLE) {
            notes = (notes
                            + "\nThe search stopped before its judge found the evidence sufficient; it may be incomplete.")
                    .strip();
        }
        vars.put("notes", notes.isEmpty() ? "(none)" : notes);
        vars.put("abstainRule", AnswerParts.abstainRule(context));
        return vars;
    }

    /**
     * One plain call over the memory's units, passages with their citations (the question's best hybrid
     * hits when the memory is empty), and the judge's last assessment as a note.
     */
    private StrategyResult lastResort(MemCotLoop.Outcome outcome, List<Unit> evidence, String reason) {
        List<LastResort.Evidence> material = new ArrayList<>();
        evidence.forEach(u -> material.add(LastResort.Evidence.of(u.hit())));
        if (!outcome.lastThinking().isBlank()) {
            material.add(LastResort.Evidence.note("The search's last assessment: " + outcome.lastThinking()));
        }
        try {
            return LastResort.answer(context, reason, material, outcome.budgetLimited());
        } catch (BudgetExhaustedException spent) {
            context.trace().record(new StepEvent.BudgetSpent("last-resort", spent.getMessage()));
            return fromMemory(outcome, spent);
        }
    }

    /**
     * The evidence itself as the answer, when the budget refuses even the answer's call: the judge's
     * earliest pick, verbatim, with no model involved. With an empty memory there is nothing to give,
     * and the budget stop goes to the question module, which answers without a model.
     */
    private StrategyResult fromMemory(MemCotLoop.Outcome outcome, BudgetExhaustedException spent) {
        List<Unit> first =
                outcome.memory().evidence().stream().limit(FALLBACK_UNITS).toList();
        if (first.isEmpty()) {
            throw spent;
        }
        String answer = first.getFirst().hit().text();
        context.trace().record(new MemCotEvent.Answer(answer, 0.0, null, null, true, spent.getMessage()));
        return new StrategyResult(
                answer,
                StrategyResult.EXTRACTIVE,
                first.stream().flatMap(u -> u.citations().stream()).toList(),
                0.0,
                null,
                true);
    }
}
