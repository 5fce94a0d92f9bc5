package io.lorekeeper.llm;

import static io.lorekeeper.support.PromptText.count;
import static io.lorekeeper.support.PromptText.group;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simulated model's rules for ComoRAG's prompts (see {@link SimulatedChatModels}): fixed
 * functions of the prompt, so that a ComoRAG question runs one full cycle of its loop.
 * <ul>
 * <li>{@code comorag/ner}: the capitalised words of the passage's first sentence;</li>
 * <li>{@code comorag/triples}: the capitalised words of the passage's first sentence as entities, and
 * one triple (first entity, "is mentioned in", the sentence);</li>
 * <li>{@code comorag/fact-filter}: the facts that share a word of four letters or more with the query;</li>
 * <li>{@code comorag/semantic-summary}, {@code comorag/episodic-summary}: the first sentence of passage 1;</li>
 * <li>{@code comorag/probe}: one probe, "Background to: " + the question, while fewer than two probes have
 * been run; none after that (the loop then stops);</li>
 * <li>{@code comorag/encode}: one finding, the first sentence of the first item; {@code comorag/encode-layers}
 * likewise per layer;</li>
 * <li>{@code comorag/fuse}: the first line of the first notes;</li>
 * <li>{@code comorag/answer}: the first sentence of source passage V1, quoted; a failure (with that sentence as
 * the tentative answer) while there is no background yet, an answer once there is; choice 0 for multiple
 * choice; "not available" and a failure when no source passage was shown.</li>
 * </ul>
 */
final class SimulatedComoRag {

    private static final Pattern PLAIN_PASSAGE = Pattern.compile("<passage>\\n(.*?)\\n</passage>", Pattern.DOTALL);
    private static final Pattern FIRST_MEMBER =
            Pattern.compile("<passage n=\"1\"[^>]*>\\n(.*?)\\n</passage>", Pattern.DOTALL);
    private static final Pattern QUESTION = Pattern.compile("^Question: (.*)$", Pattern.MULTILINE);
    private static final Pattern RUN = Pattern.compile("(?s)Probes already run:\\n(.*?)\\n\\nWhat they turned up:");
    private static final Pattern NUMBERED = Pattern.compile("^\\d+\\. ", Pattern.MULTILINE);
    private static final Pattern NOTES = Pattern.compile("<notes[^>]*>\\n(.*?)\\n</notes>", Pattern.DOTALL);
    private static final Pattern CAPITALISED = Pattern.compile("\\b\\p{Lu}\\p{L}{2,}\\b");

    private SimulatedComoRag() {}

    static void reply(String template, String user, Map<String, Object> out) {
        switch (template) {
            case "comorag/ner" -> out.put("entities", List.copyOf(capitalised(first(group(PLAIN_PASSAGE, user)))));
            case "comorag/fact-filter" -> out.put("relevant", factsSharingAWord(user));
            case "comorag/triples" -> {
                String first = first(group(PLAIN_PASSAGE, user));
                Set<String> entities = new LinkedHashSet<>();
                Matcher m = CAPITALISED.matcher(first);
                while (m.find() && entities.size() < 5) {
                    entities.add(m.group());
                }
                out.put("entities", List.copyOf(entities));
                out.put(
                        "triples",
                        entities.isEmpty()
                                ? List.of()
                                : List.of(Map.of(
                                        "subject",
                                        entities.iterator().next(),
                                        "predicate",
                                        "is mentioned in",
                                        "object",
                                        first.length() > 200 ? first.substring(0, 200) : first)));
            }
            case "comorag/semantic-summary", "comorag/episodic-summary" -> {
                String first = first(group(FIRST_MEMBER, user));
                out.put("summary", first.isEmpty() ? "An empty stretch of text." : first);
            }
            case "comorag/probe" -> {
                int run = count(NUMBERED, group(RUN, user));
                out.put(
                        "probes",
                        run < 2
                                ? List.of("Background to: "
                                        + group(QUESTION, user).strip())
                                : List.of());
            }
            case "comorag/encode" -> out.put("findings", findings(firstItem(user, "P1")));
            case "comorag/encode-layers" -> {
                out.put("veridical", findings(firstItem(user, "V1")));
                out.put("semantic", findings(firstItem(user, "S1")));
                out.put("episodic", findings(firstItem(user, "E1")));
            }
            case "comorag/fuse" -> {
                String notes = group(NOTES, user).strip();
                String line = notes.lines().findFirst().orElse("").replaceFirst("^- ", "");
                out.put("history", line.isEmpty() ? "Nothing is known yet." : line);
            }
            case "comorag/answer" -> {
                String first = first(firstItem(user, "V1"));
                boolean background = !user.contains("<notes>\n(none yet)\n</notes>");
                out.put("understanding", "simulated");
                out.put("analysis", "simulated");
                out.put("canAnswer", background && !first.isEmpty());
                out.put("answer", first.isEmpty() ? SimulatedChatModels.SimulatedChatModel.NOT_AVAILABLE : first);
                out.put("choice", user.contains("\nChoices:\n") ? 0 : null);
                out.put("evidence", first.isEmpty() ? List.of() : List.of(Map.of("item", "V1", "quote", first)));
                out.put("confidence", first.isEmpty() ? 0.0 : background ? 0.5 : 0.3);
            }
            default -> throw new IllegalStateException("not a ComoRAG template: " + template);
        }
    }

    private static Set<String> capitalised(String sentence) {
        Set<String> entities = new LinkedHashSet<>();
        Matcher m = CAPITALISED.matcher(sentence);
        while (m.find() && entities.size() < 5) {
            entities.add(m.group());
        }
        return entities;
    }

    private static final Pattern QUERY = Pattern.compile("<query>\\n(.*?)\\n</query>", Pattern.DOTALL);
    private static final Pattern FACT = Pattern.compile("^F(\\d+)\\. \\((.*)\\)$", Pattern.MULTILINE);
    private static final Pattern WORD = Pattern.compile("\\p{L}{4,}");

    /** The labels of the fact filter's facts that share a word of four letters or more with its query. */
    static List<String> factsSharingAWord(String user) {
        Set<String> words = new LinkedHashSet<>();
        Matcher w = WORD.matcher(group(QUERY, user).toLowerCase(java.util.Locale.ROOT));
        while (w.find()) {
            words.add(w.group());
        }
        List<String> kept = new java.util.ArrayList<>();
        Matcher f = FACT.matcher(user);
        while (f.find()) {
            Matcher fw = WORD.matcher(f.group(2).toLowerCase(java.util.Locale.ROOT));
            while (fw.find()) {
                if (words.contains(fw.group())) {
                    kept.add("F" + f.group(1));
                    break;
                }
            }
        }
        return kept;
    }

    private static List<String> findings(String item) {
        String first = first(item);
        return first.isEmpty() ? List.of() : List.of(first);
    }

    /** The text of the item labelled {@code label} ({@code <passage n="V1">} or {@code <summary n="S1">}). */
    private static String firstItem(String user, String label) {
        Matcher m = Pattern.compile("<(passage|summary) n=\"" + label + "\"[^>]*>\\n(.*?)\\n</\\1>", Pattern.DOTALL)
                .matcher(user);
        return m.find() ? m.group(2) : "";
    }

    private static String first(String block) {
        return SimulatedChatModels.SimulatedChatModel.firstSentences(block, 1);
    }

    static Map<String, Object> replyFor(String template, String user) {
        Map<String, Object> out = new LinkedHashMap<>();
        reply(template, user, out);
        return out;
    }
}
