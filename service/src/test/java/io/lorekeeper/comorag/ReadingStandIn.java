package io.lorekeeper.comorag;

import static io.lorekeeper.llm.FakeOpenAi.completion;
import static io.lorekeeper.support.PromptText.count;
import static io.lorekeeper.support.PromptText.group;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lorekeeper.llm.FakeOpenAi;
import io.lorekeeper.text.SentenceSplitter;
import io.lorekeeper.text.Span;
import tools.jackson.databind.json.JsonMapper;

/**
 * An OpenAI-compatible stand-in for ComoRAG's prompts that reads its prompt: every reply is computed
 * from the text the service sent ({@link FakeOpenAi#onTask(String, Function)}), none is written for
 * a particular document or question.
 * <ul>
 * <li>{@code comorag/ner}: the passage's names, as for triples;</li>
 * <li>{@code comorag/fact-filter}: the offered facts that share a word of four letters or more with the
 * query;</li>
 * <li>{@code comorag/triples}: the passage's names (capitalised words, runs of them, with a title such
 * as "Mr." or "Miss"; a word that only ever starts a sentence or a quotation is not a name) and, for
 * each sentence, a triple per pair of names next to each other in it: the words between them as the
 * predicate when they are a short phrase, else "appears with" (at most {@value #MAX_TRIPLES} a
 * passage);</li>
 * <li>{@code comorag/semantic-summary}, {@code comorag/episodic-summary}: the names the members share
 * most, then the first sentence of each of the first members;</li>
 * <li>{@code comorag/probe}: one probe per name of the question (at most two) after the question's own
 * search, none after that;</li>
 * <li>{@code comorag/encode}: the sentences of the evidence that name one of the question's names (at
 * most three), else its first sentence;</li>
 * <li>{@code comorag/fuse}: the notes, cut to 120 words;</li>
 * <li>{@code comorag/answer}: a failure while there is no background yet; after that, the sentence of
 * the source passages (V1, V2...) that names most of the question's names and shares most of its
 * words, quoted as it stands.</li>
 * </ul>
 * The GAM and mind-graph stages that a {@code deep} document also builds get fixed short replies.
 */
final class ReadingStandIn {

    static final int MAX_TRIPLES = 8;
    private static final int MAX_PREDICATE_WORDS = 5;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern NAME =
            Pattern.compile("(?:(?:Mr|Mrs|Dr|St)\\.?\\s+|Miss\\s+)?\\p{Lu}\\p{Ll}+(?:[ \\t\\n]+\\p{Lu}\\p{Ll}+)*");
    private static final Pattern PLAIN_PASSAGE = Pattern.compile("<passage>\\n(.*?)\\n</passage>", Pattern.DOTALL);
    private static final Pattern MEMBER =
            Pattern.compile("<passage n=\"\\d+\"[^>]*>\\n(.*?)\\n</passage>", Pattern.DOTALL);
    private static final Pattern ITEM =
            Pattern.compile("<(passage|summary) n=\"([A-Z]?\\d+)\"[^>]*>\\n(.*?)\\n</\\1>", Pattern.DOTALL);
    private static final Pattern QUESTION = Pattern.compile("^Question: (.*)$", Pattern.MULTILINE);
    private static final Pattern RUN = Pattern.compile("(?s)Probes already run:\\n(.*?)\\n\\nWhat they turned up:");
    private static final Pattern NUMBERED = Pattern.compile("^\\d+\\. ", Pattern.MULTILINE);
    private static final Pattern NOTES = Pattern.compile("<notes>\\n(.*?)\\n</notes>", Pattern.DOTALL);
    private static final Pattern WORD = Pattern.compile("\\p{L}{4,}");
    /** What a sentence's or a quotation's first word may follow inside a sentence the splitter did not cut. */
    private static final String OPENERS = "“\"‘'(—-.!?:;";

    private ReadingStandIn() {}

    /** Points every ComoRAG template (and the deep profile's GAM and mind-graph stages) at this stand-in. */
    static void install(FakeOpenAi fake) {
        fake.onTask("gam/memo", completion("{\"memo\": \"A stretch of the story.\"}"));
        fake.onTask("gam/page-header", completion("{\"header\": \"A page of the story.\"}"));
        fake.onTask("mindgraph/build", completion("{\"operations\": []}"));
        reply(fake, "comorag/ner", user -> Map.of("entities", List.copyOf(names(group(PLAIN_PASSAGE, user)))));
        reply(fake, "comorag/triples", ReadingStandIn::triples);
        reply(fake, "comorag/fact-filter", ReadingStandIn::factFilter);
        reply(fake, "comorag/semantic-summary", ReadingStandIn::summary);
        reply(fake, "comorag/episodic-summary", ReadingStandIn::summary);
        reply(fake, "comorag/probe", ReadingStandIn::probe);
        reply(fake, "comorag/encode", ReadingStandIn::encode);
        reply(fake, "comorag/fuse", ReadingStandIn::fuse);
        reply(fake, "comorag/answer", ReadingStandIn::answer);
    }

    private static void reply(FakeOpenAi fake, String template, Function<String, Map<String, Object>> reply) {
        fake.onTask(
                template,
                request -> completion(JSON.writeValueAsString(reply.apply(request.lastText("user"))), 900, 120));
    }

    // ---------------------------------------------------------------- index

    private static final Pattern QUERY = Pattern.compile("<query>\\n(.*?)\\n</query>", Pattern.DOTALL);
    private static final Pattern FACT = Pattern.compile("^(F\\d+)\\. \\((.*)\\)$", Pattern.MULTILINE);

    /** The fact filter: the facts that share a word of four letters or more with the query. */
    static Map<String, Object> factFilter(String user) {
        Set<String> words = new HashSet<>();
        Matcher w = WORD.matcher(group(QUERY, user).toLowerCase(Locale.ROOT));
        while (w.find()) {
            words.add(w.group());
        }
        List<String> kept = new ArrayList<>();
        Matcher f = FACT.matcher(user);
        while (f.find()) {
            Matcher fw = WORD.matcher(f.group(2).toLowerCase(Locale.ROOT));
            while (fw.find()) {
                if (words.contains(fw.group())) {
                    kept.add(f.group(1));
                    break;
                }
            }
        }
        return Map.of("relevant", kept);
    }

    static Map<String, Object> triples(String user) {
        String passage = group(PLAIN_PASSAGE, user);
        Set<String> names = names(passage);
        List<Map<String, String>> triples = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String sentence : sentences(passage)) {
            List<MatchResult> found = namesIn(sentence, names);
            for (int i = 0; i + 1 < found.size() && triples.size() < MAX_TRIPLES; i++) {
                String subject = normal(found.get(i).group());
                String object = normal(found.get(i + 1).group());
                if (subject.equals(object)) {
                    continue;
                }
                String between = sentence.substring(
                                found.get(i).end(), found.get(i + 1).start())
                        .replaceAll("[^\\p{L}' ]+", " ")
                        .strip()
                        .replaceAll("\\s+", " ");
                int words = between.isEmpty() ? 0 : between.split(" ").length;
                String predicate = words >= 1 && words <= MAX_PREDICATE_WORDS ? between : "appears with";
                if (seen.add((subject + "|" + predicate + "|" + object).toLowerCase(Locale.ROOT))) {
                    triples.add(Map.of("subject", subject, "predicate", predicate, "object", object));
                }
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("entities", List.copyOf(names));
        out.put("triples", triples);
        return out;
    }

    /**
     * The passage's names: capitalised runs seen at least once inside a sentence (not its first
     * word, nor the first word of a quotation), so that "The" or "Then" at a sentence's start is not
     * taken for a name.
     */
    static Set<String> names(String passage) {
        Set<String> names = new LinkedHashSet<>();
        for (String sentence : sentences(passage)) {
            Matcher m = NAME.matcher(sentence);
            while (m.find()) {
                if (!opensSentence(sentence, m.start())) {
                    names.add(normal(m.group()));
                }
            }
        }
        return names;
    }

    private static boolean opensSentence(String sentence, int at) {
        String before = sentence.substring(0, at).stripTrailing();
        return before.isEmpty() || OPENERS.indexOf(before.charAt(before.length() - 1)) >= 0;
    }

    /** The names of {@code names} in a sentence, in order (a name also counts where it starts the sentence). */
    private static List<MatchResult> namesIn(String sentence, Set<String> names) {
        List<MatchResult> found = new ArrayList<>();
        Matcher m = NAME.matcher(sentence);
        while (m.find()) {
            if (names.contains(normal(m.group()))) {
                found.add(m.toMatchResult());
            }
        }
        return found;
    }

    static Map<String, Object> summary(String user) {
        List<String> members = groups(MEMBER, user, 1);
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String member : members) {
            for (String name : names(member)) {
                counts.merge(name, 1, Integer::sum);
            }
        }
        List<String> top = counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(6)
                .map(Map.Entry::getKey)
                .toList();
        StringBuilder text = new StringBuilder(top.isEmpty() ? "" : "About " + String.join(", ", top) + ". ");
        for (String member : members.subList(0, Math.min(4, members.size()))) {
            sentences(member).stream()
                    .findFirst()
                    .ifPresent(s -> text.append(normal(s)).append(' '));
        }
        String summary = cut(text.toString(), 150);
        return Map.of("summary", summary.isEmpty() ? "A stretch of the text without events." : summary);
    }

    // ---------------------------------------------------------------- question

    static Map<String, Object> probe(String user) {
        int run = count(NUMBERED, group(RUN, user));
        String question = group(QUESTION, user).strip();
        List<String> probes = new ArrayList<>();
        if (run < 2) {
            for (String name : questionNames(question)) {
                if (probes.size() < 2) {
                    probes.add("What " + name + " does and says");
                }
            }
            if (probes.isEmpty()) {
                probes.add("What happens before: " + question);
            }
        }
        return Map.of("probes", probes);
    }

    static Map<String, Object> encode(String user) {
        Set<String> names = questionNames(group(QUESTION, user));
        List<String> findings = new ArrayList<>();
        List<String> items = groups(ITEM, user, 3);
        for (String item : items) {
            for (String sentence : sentences(item)) {
                if (findings.size() < 3 && names.stream().anyMatch(sentence::contains)) {
                    findings.add(normal(sentence));
                }
            }
        }
        if (findings.isEmpty() && !items.isEmpty()) {
            sentences(items.getFirst()).stream().findFirst().ifPresent(s -> findings.add(normal(s)));
        }
        return Map.of("findings", findings);
    }

    static Map<String, Object> fuse(String user) {
        String notes = user.substring(Math.max(0, user.indexOf("Notes:")));
        String history = cut(notes.replace("Notes:", "").replaceAll("<[^>]+>", " "), 120);
        return Map.of("history", history.isEmpty() ? "Nothing is known yet." : history);
    }

    /**
     * A failure while there is no background; then the source sentence that names most of the
     * question's names and shares most of its words (ties: the earlier item), quoted verbatim.
     */
    static Map<String, Object> answer(String user) {
        String question = group(QUESTION, user).strip();
        Set<String> names = questionNames(question);
        Set<String> words = words(question);
        boolean background = !group(NOTES, user).strip().equals("(none yet)");
        record Candidate(String item, String sentence, int score) {}
        List<Candidate> candidates = new ArrayList<>();
        Matcher m = ITEM.matcher(user);
        while (m.find()) {
            if (!m.group(2).startsWith("V")) {
                continue;
            }
            for (String sentence : sentences(m.group(3))) {
                int named = (int)
                        names.stream().filter(n -> normal(sentence).contains(n)).count();
                Set<String> shared = words(sentence);
                shared.retainAll(words);
                candidates.add(new Candidate(m.group(2), sentence, named * 10 + shared.size()));
            }
        }
        Candidate best = candidates.stream()
                .max(Comparator.comparingInt(Candidate::score))
                .orElse(null);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("understanding", "Passages of a long text.");
        out.put(
                "analysis",
                best == null ? "No source passage." : "The best-matching sentence is in " + best.item() + ".");
        out.put("canAnswer", background && best != null);
        out.put("answer", best == null ? "" : cut(normal(best.sentence()), 30));
        out.put(
                "evidence",
                best == null
                        ? List.of()
                        : List.of(Map.of(
                                "item", best.item(), "quote", best.sentence().strip())));
        out.put("confidence", best == null ? 0.0 : background ? 0.6 : 0.3);
        return out;
    }

    /** The names a question uses (capitalised runs, "Mr." and the like included, possessives dropped). */
    static Set<String> questionNames(String question) {
        Set<String> names = new LinkedHashSet<>();
        Matcher m = NAME.matcher(question == null ? "" : question);
        while (m.find()) {
            // the question's first word is capitalised as any sentence's is
            String name = m.start() == 0 ? normal(m.group()).replaceFirst("^\\p{Lu}\\p{Ll}+ ?", "") : normal(m.group());
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return names;
    }

    // ---------------------------------------------------------------- text

    static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        for (Span s : SentenceSplitter.split(text)) {
            String sentence = s.of(text);
            if (!sentence.isBlank()) {
                out.add(sentence);
            }
        }
        return out;
    }

    private static Set<String> words(String text) {
        Set<String> out = new HashSet<>();
        Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    private static String normal(String s) {
        return s.strip().replaceAll("\\s+", " ");
    }

    private static String cut(String text, int words) {
        String[] parts = text.strip().split("\\s+");
        return String.join(" ", java.util.Arrays.copyOf(parts, Math.min(words, parts.length)))
                .strip();
    }

    private static List<String> groups(Pattern pattern, String text, int group) {
        List<String> out = new ArrayList<>();
        Matcher m = pattern.matcher(text == null ? "" : text);
        while (m.find()) {
            out.add(m.group(group));
        }
        return out;
    }
}
