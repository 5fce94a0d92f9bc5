package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lorekeeper.comorag.ComoRagStore.Fact;
import io.lorekeeper.comorag.ComoRagStore.Scored;
import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;

/**
 * Which of the facts linked to a probe seed the graph ranking. HippoRAG 2's "recognition memory":
 * one call shows the model the probe and the linked facts and keeps those it says bear on the probe
 * (none kept: the units are ranked by dense similarity, as HippoRAG 2 falls back to dense passage
 * retrieval). Without a model, when the budget cannot spare the call, or when the reply has nothing
 * usable, the margin rule decides instead: the facts more than {@value #MARGIN} below the best one's
 * similarity are dropped. A reply with some usable items keeps those, and the trace says what was
 * dropped (a label or fact that was not offered).
 */
final class FactFilter {

    static final String TEMPLATE = "comorag/fact-filter";
    static final double MARGIN = 0.1;
    private static final Pattern LABEL =
            Pattern.compile("^\\[?\\s*F?\\s*(\\d+)\\s*]?[.):]?$", Pattern.CASE_INSENSITIVE);
    private static final Pattern LABEL_IN_PROSE = Pattern.compile("\\bF\\s*(\\d+)\\b");

    private final LlmSession llm;

    /** @param llm the question's session, or null for the margin rule alone */
    private FactFilter(LlmSession llm) {
        this.llm = llm;
    }

    static FactFilter withModel(LlmSession llm) {
        return new FactFilter(llm);
    }

    static FactFilter marginOnly() {
        return new FactFilter(null);
    }

    /**
     * The facts kept and how: {@code method} {@code llm} or {@code margin}; {@code fallback} why the
     * margin rule stood in for the model (null when it was asked for, or the model decided);
     * {@code dropped} the reply's items that named no offered fact.
     */
    record Filtered(List<Scored<Fact>> kept, String method, String fallback, List<String> dropped) {}

    /** The model's reply: the labels (F1, F2...) of the facts that bear on the probe. */
    record Choice(List<String> relevant) {

        /** Prose: the labels it names; none named is nothing usable (it may as well be a refusal). */
        static Choice fromPlainText(String text) {
            List<String> labels = new ArrayList<>();
            Matcher m = LABEL_IN_PROSE.matcher(text);
            while (m.find()) {
                labels.add("F" + m.group(1));
            }
            return new Choice(labels.isEmpty() ? null : labels);
        }
    }

    Filtered keep(String probe, List<Scored<Fact>> linked) {
        if (linked.isEmpty()) {
            return new Filtered(List.of(), llm == null ? ComoRagOptions.MARGIN : ComoRagOptions.LLM, null, List.of());
        }
        if (llm == null) {
            return margin(linked, null);
        }
        // the call must leave room for the try-answer that reads what it keeps (a cycle's own check counts both)
        if (!llm.budget().stepFits(2)) {
            return margin(
                    linked, "the budget cannot spare the call: " + llm.budget().whyStepDoesNotFit(2));
        }
        Choice choice;
        try {
            choice = llm.structuredOrText(
                    Role.RESEARCHER,
                    TEMPLATE,
                    Map.of("probe", probe, "facts", facts(linked)),
                    Choice.class,
                    Choice::fromPlainText);
        } catch (UnusableReplyException unusable) {
            return margin(linked, "the reply was unusable: " + unusable.getMessage());
        } catch (BudgetExhaustedException spent) {
            return margin(linked, "the budget refused the call: " + spent.getMessage());
        }
        return read(choice, linked).orElseGet(() -> margin(linked, "the reply named no fact that was offered"));
    }

    /** The facts a reply names, in the order offered; empty when the reply holds nothing usable. */
    static java.util.Optional<Filtered> read(Choice choice, List<Scored<Fact>> linked) {
        if (choice.relevant() == null) {
            return java.util.Optional.empty();
        }
        Map<Integer, Scored<Fact>> kept = new LinkedHashMap<>();
        List<String> dropped = new ArrayList<>();
        for (String item : choice.relevant()) {
            int index = indexOf(item, linked);
            if (index < 0) {
                dropped.add(item == null ? "(blank)" : item);
            } else {
                kept.putIfAbsent(index, linked.get(index));
            }
        }
        if (kept.isEmpty() && !dropped.isEmpty()) {
            return java.util.Optional.empty();
        }
        List<Scored<Fact>> inOrder = new ArrayList<>();
        for (int i = 0; i < linked.size(); i++) {
            if (kept.containsKey(i)) {
                inOrder.add(linked.get(i));
            }
        }
        return java.util.Optional.of(new Filtered(inOrder, ComoRagOptions.LLM, null, dropped));
    }

    /** An item's fact: by label ("F2", "2", "[F2]"), else by the fact's own words; -1 when it names none offered. */
    private static int indexOf(String item, List<Scored<Fact>> linked) {
        if (item == null || item.isBlank()) {
            return -1;
        }
        Matcher label = LABEL.matcher(item.strip());
        if (label.matches()) {
            int n = Integer.parseInt(label.group(1));
            return n >= 1 && n <= linked.size() ? n - 1 : -1;
        }
        String words = key(item);
        for (int i = 0; i < linked.size(); i++) {
            if (key(linked.get(i).item().text()).equals(words)) {
                return i;
            }
        }
        return -1;
    }

    private static String key(String text) {
        return text.toLowerCase(Locale.ROOT)
                .replaceAll("^\\[?\\s*f\\d+\\s*]?[.):]?\\s*", "")
                .replaceAll("[^\\p{L}\\p{N}]+", " ")
                .strip();
    }

    /** The margin rule: the facts within {@value #MARGIN} of the best one's similarity. */
    static Filtered margin(List<Scored<Fact>> linked, String fallback) {
        double best = linked.stream().mapToDouble(Scored::score).max().orElse(0);
        return new Filtered(
                linked.stream().filter(f -> f.score() >= best - MARGIN).toList(),
                ComoRagOptions.MARGIN,
                fallback,
                List.of());
    }

    /** The linked facts as the model reads them, labelled F1, F2... in order of similarity. */
    static PromptMarkup facts(List<Scored<Fact>> linked) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < linked.size(); i++) {
            Fact f = linked.get(i).item();
            out.append("F")
                    .append(i + 1)
                    .append(". (")
                    .append(PromptMarkup.data(f.subject()))
                    .append(" | ")
                    .append(PromptMarkup.data(f.predicate()))
                    .append(" | ")
                    .append(PromptMarkup.data(f.object()))
                    .append(")\n");
        }
        return PromptMarkup.of(out.toString().stripTrailing());
    }
}
