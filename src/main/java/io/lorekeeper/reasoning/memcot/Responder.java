package io.lorekeeper.reasoning.memcot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.reasoning.AnswerParts;
import io.lorekeeper.reasoning.Citation;
import io.lorekeeper.reasoning.QuestionContext;
import io.lorekeeper.reasoning.StrategyResult;
import io.lorekeeper.text.TokenCounter;

/**
 * Answers from the short-term memory and nothing else. Unlike the authors' code, a loop that ends
 * unsure does not fall back to reading the whole document (that would be a full-context baseline in
 * disguise): the responder still answers from the memory, and the confidence is capped. When the model
 * cannot be asked (budget spent) or gives nothing usable, the answer is the evidence itself, verbatim.
 */
final class Responder {

    /** The most confidence an answer gets when the judge never said the memory was enough. */
    static final double UNSURE_CONFIDENCE = 0.3;

    static final String NOTHING_FOUND = "The information is not available in the documents.";
    private static final int FALLBACK_UNITS = 3;

    private final QuestionContext context;
    private final MemCotSettings settings;
    private final Units units;

    Responder(QuestionContext context, MemCotSettings settings, Units units) {
        this.context = context;
        this.settings = settings;
        this.units = units;
    }

    StrategyResult answer(MemCotLoop.Outcome outcome) {
        List<Unit> evidence = units.inDocumentOrder(outcome.memory().evidence());
        PromptMarkup memory = units.render(evidence, "(no evidence was found)");
        Map<String, Object> shown = new LinkedHashMap<>();
        shown.put("steps", outcome.steps());
        shown.put(
                "stop", outcome.stop().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        shown.put("units", evidence.stream().map(Unit::summary).toList());
        shown.put("memoryTokens", TokenCounter.count(memory.text()));
        context.trace().record("context", shown);
        if (outcome.budgetLimited()) {
            return fromMemory(outcome, "the budget ran out", true);
        }
        if (evidence.isEmpty()) {
            context.trace()
                    .record(
                            "answer",
                            Map.of("answer", NOTHING_FOUND, "confidence", 0.0, "reason", "the memory is empty"));
            return new StrategyResult(NOTHING_FOUND, StrategyResult.GENERATED, List.of(), 0.0, null, false);
        }
        MemCotAnswer reply;
        try {
            reply = context.llm()
                    .atTemperature(settings.responderTemperature())
                    .structuredOrText(
                            Role.ANSWERER,
                            "memcot/answer",
                            variables(outcome, memory),
                            MemCotAnswer.class,
                            MemCotAnswer::fromProse);
        } catch (BudgetExhaustedException spent) {
            context.trace().record("budget", Map.of("phase", "answer", "reason", spent.getMessage()));
            return fromMemory(outcome, "the budget ran out", true);
        } catch (UnusableReplyException unusable) {
            return fromMemory(outcome, "the responder's reply was unusable: " + unusable.getMessage(), false);
        }
        List<Citation> citations = new ArrayList<>();
        List<Map<String, Object>> checked = new ArrayList<>();
        for (MemCotAnswer.Evidence item : reply.evidence()) {
            Unit unit = units.select(List.of(item.id()), evidence).units().stream()
                    .findFirst()
                    .orElse(null);
            Cited cited = cite(unit, item.quote(), evidence);
            Map<String, Object> check = new LinkedHashMap<>();
            check.put("id", item.id());
            check.put("unitKnown", unit != null);
            check.put("quoteFound", cited.quoteFound());
            checked.add(check);
            citations.addAll(cited.citations());
        }
        Integer choice = AnswerParts.validChoice(context, reply.choice());
        String answer = choice != null ? context.choices().get(choice) : reply.answer();
        boolean unsure = outcome.stop() != MemCotLoop.Stop.ANSWERABLE;
        double confidence = unsure ? Math.min(reply.confidence(), UNSURE_CONFIDENCE) : reply.confidence();
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("answer", answer);
        event.put("confidence", confidence);
        event.put("confidenceCapped", unsure && reply.confidence() > UNSURE_CONFIDENCE);
        event.put("evidence", checked);
        context.trace().record("answer", event);
        return new StrategyResult(answer, StrategyResult.GENERATED, citations, confidence, choice, false);
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

    private Map<String, Object> variables(MemCotLoop.Outcome outcome, PromptMarkup memory) {
        Map<String, Object> vars = new LinkedHashMap<>(AnswerParts.choiceVariables(context));
        vars.put("question", context.question());
        vars.put("memory", memory);
        String notes =
                outcome.lastThinking().isBlank() ? "" : "The search's last assessment: " + outcome.lastThinking();
        if (outcome.stop() != MemCotLoop.Stop.ANSWERABLE) {
            notes = (notes
                            + "\nThe search stopped before its judge found the evidence sufficient; it may be incomplete.")
                    .strip();
        }
        vars.put("notes", notes.isEmpty() ? "(none)" : notes);
        return vars;
    }

    /** The evidence itself as the answer: the judge's earliest picks, verbatim, with no model involved. */
    private StrategyResult fromMemory(MemCotLoop.Outcome outcome, String reason, boolean budgetLimited) {
        List<Unit> first =
                outcome.memory().evidence().stream().limit(FALLBACK_UNITS).toList();
        String answer = first.isEmpty() ? "" : first.getFirst().hit().text();
        context.trace()
                .record("answer", Map.of("answer", answer, "confidence", 0.0, "fromMemory", true, "reason", reason));
        return new StrategyResult(
                answer,
                StrategyResult.EXTRACTIVE,
                first.stream().flatMap(u -> u.citations().stream()).toList(),
                0.0,
                null,
                budgetLimited);
    }
}
