package io.lorekeeper.evaluator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.lorekeeper.text.SentenceSplitter;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

/**
 * A RULER-style synthetic task generator, written from the rules the RULER paper publishes: a
 * haystack of real prose (a Gutenberg novel, cut at a random sentence to the requested length in
 * tokens) with needles inserted at random sentence boundaries (uniform depth), and a question whose
 * answer needs them all. Scored by string match (every reference must appear in the output).
 *
 * <ul>
 * <li>{@code niah_single}: one needle "One of the special magic numbers for {key} is: {7-digit number}.";
 * the key is an adjective-noun pair from the wonderwords lists;</li>
 * <li>{@code niah_multikey}: the same with three distractor needles for other keys;</li>
 * <li>{@code niah_multivalue}: four needles with the same key and different numbers, all asked for;</li>
 * <li>{@code niah_multiquery}: four needles with different keys, all asked for;</li>
 * <li>{@code vt} (variable tracking, multi-hop): "VAR X = 12345." then a chain of four "VAR Y = VAR X."
 * assignments scattered in order, plus a distractor chain; asks for every variable holding the value.</li>
 * </ul>
 * The same (task, length, seed, index) always gives the same item.
 */
public final class Ruler {

    private Ruler() {}

    public static final List<String> TASKS =
            List.of("niah_single", "niah_multikey", "niah_multivalue", "niah_multiquery", "vt");

    /**
     * @param root folder holding {@code novels/*.txt} and {@code ruler/wonderwords/{adjective,noun}list.txt}
     *        (e.g. ../shared/data)
     */
    public static List<EvalItem> generate(Path root, List<String> tasks, int lengthTokens, long seed, int count) {
        List<String> novels = new ArrayList<>();
        try (var files = Files.list(root.resolve("novels"))) {
            for (Path p : files.filter(
                            f -> f.toString().endsWith(".txt") && !f.toString().contains("with_pg_header"))
                    .sorted()
                    .toList()) {
                novels.add(Files.readString(p));
            }
            List<String> adjectives = words(root.resolve("ruler/wonderwords/adjectivelist.txt"));
            List<String> nouns = words(root.resolve("ruler/wonderwords/nounlist.txt"));
            if (novels.isEmpty()) {
                throw new IllegalArgumentException("no novels under " + root.resolve("novels"));
            }
            List<EvalItem> items = new ArrayList<>();
            for (String task : tasks) {
                if (!TASKS.contains(task)) {
                    throw new IllegalArgumentException("unknown RULER task '" + task + "'; known: " + TASKS);
                }
                for (int i = 0; i < count; i++) {
                    Random random = new Random(seed * 1_000_003L + task.hashCode() * 31L + i);
                    items.add(item(task, i, lengthTokens, seed, random, novels, adjectives, nouns));
                }
            }
            return items;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One generated item. One method on purpose: the random draws happen in a fixed order, which is
     * what keeps a seed's items the same from run to run; splitting it would hide that order.
     */
    private static EvalItem item(
            String task,
            int index,
            int lengthTokens,
            long seed,
            Random random,
            List<String> novels,
            List<String> adjectives,
            List<String> nouns) {
        List<String> needles = new ArrayList<>();
        List<String> answers = new ArrayList<>();
        String question;
        boolean ordered = false;
        switch (task) {
            case "vt" -> {
                ordered = true;
                int value = 10000 + random.nextInt(90000);
                int other = value + 1 + random.nextInt(1000);
                List<String> names = distinctNames(random, 10);
                List<String> chain = names.subList(0, 5);
                List<String> decoy = names.subList(5, 10);
                needles.add("VAR " + chain.getFirst() + " = " + value + ".");
                for (int h = 1; h < chain.size(); h++) {
                    needles.add("VAR " + chain.get(h) + " = VAR " + chain.get(h - 1) + ".");
                }
                needles.add("VAR " + decoy.getFirst() + " = " + other + ".");
                for (int h = 1; h < decoy.size(); h++) {
                    needles.add("VAR " + decoy.get(h) + " = VAR " + decoy.get(h - 1) + ".");
                }
                answers.addAll(chain);
                question = "Find all variables that are assigned the value " + value
                        + " in the text, directly or through other variables. List their names.";
            }
            default -> {
                int needlesCount = task.equals("niah_single") ? 1 : 4;
                String key = key(random, adjectives, nouns);
                List<String> keys = new ArrayList<>(List.of(key));
                while (keys.size() < needlesCount) {
                    String k = key(random, adjectives, nouns);
                    if (!keys.contains(k)) {
                        keys.add(k);
                    }
                }
                for (int n = 0; n < needlesCount; n++) {
                    String k = task.equals("niah_multivalue") ? key : keys.get(n);
                    String v = String.valueOf(1_000_000 + random.nextInt(9_000_000));
                    needles.add("One of the special magic numbers for " + k + " is: " + v + ".");
                    boolean asked = switch (task) {
                        case "niah_multikey", "niah_single" -> n == 0;
                        default -> true;
                    };
                    if (asked) {
                        answers.add(v);
                    }
                }
                question = switch (task) {
                    case "niah_multivalue" ->
                        "What are all the special magic numbers for " + key + " mentioned in the text?";
                    case "niah_multiquery" ->
                        "What are all the special magic numbers for " + String.join(", ", keys.subList(0, 3)) + " and "
                                + keys.get(3) + " mentioned in the text?";
                    default -> "What is the special magic number for " + key + " mentioned in the text?";
                };
            }
        }
        String text = haystack(random, novels, lengthTokens, needles, ordered);
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("title", "RULER " + task + " " + lengthTokens + " seed " + seed + " #" + index);
        document.put("text", text);
        String id = "ruler/" + task + "/" + lengthTokens + "/" + seed + "/" + index;
        return new EvalItem(id, "ruler", id, document, question, answers, List.of(), null, needles, task);
    }

    /** Novel text of about {@code lengthTokens} tokens, starting at a random sentence, with the needles placed at random sentence ends. */
    static String haystack(
            Random random, List<String> novels, int lengthTokens, List<String> needles, boolean ordered) {
        String novel = novels.get(random.nextInt(novels.size()));
        List<Span> sentences = SentenceSplitter.split(novel);
        int first = random.nextInt(Math.max(1, sentences.size() / 2));
        List<String> parts = new ArrayList<>();
        int budget =
                lengthTokens - needles.stream().mapToInt(TokenCounter::count).sum();
        int used = 0;
        for (int s = first; used < budget; s = (s + 1) % sentences.size()) {
            String sentence = sentences.get(s).of(novel);
            used += TokenCounter.count(sentence);
            parts.add(sentence);
        }
        List<Integer> positions = new ArrayList<>();
        for (int n = 0; n < needles.size(); n++) {
            positions.add(random.nextInt(parts.size() + 1));
        }
        if (ordered) {
            positions.sort(null);
        }
        // Insert from the back so earlier positions stay valid; equal positions keep needle order.
        for (int n = needles.size() - 1; n >= 0; n--) {
            parts.add(positions.get(n), needles.get(n));
        }
        return String.join(
                " ", parts.stream().map(p -> p.strip().replaceAll("\\s+", " ")).toList());
    }

    private static String key(Random random, List<String> adjectives, List<String> nouns) {
        return adjectives.get(random.nextInt(adjectives.size())) + "-" + nouns.get(random.nextInt(nouns.size()));
    }

    private static List<String> distinctNames(Random random, int n) {
        List<String> names = new ArrayList<>();
        while (names.size() < n) {
            StringBuilder name = new StringBuilder();
            for (int c = 0; c < 5; c++) {
                name.append((char) ('A' + random.nextInt(26)));
            }
            if (!names.contains(name.toString())) {
                names.add(name.toString());
            }
        }
        return names;
    }

    private static List<String> words(Path file) throws IOException {
        return Files.readAllLines(file).stream()
                .map(String::strip)
                .filter(w -> !w.isEmpty() && w.matches("[a-z]+"))
                .toList();
    }
}
