package io.lorekeeper.extractive;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lorekeeper.document.search.SearchHit;

/**
 * Names that the first hits mention but the question does not: the bridge entities of a
 * multi-hop question ("the director of the film that..."). Searching again with each of them
 * reaches the second hop's evidence.
 */
final class BridgeEntities {

    private static final Pattern NAME =
            Pattern.compile("\\b\\p{Lu}[\\p{L}'’-]+(?:\\s+(?:of\\s+|de\\s+|van\\s+)?\\p{Lu}[\\p{L}'’-]+)*");
    private static final java.util.Set<String> COMMON = java.util.Set.of(
            "i", "the", "a", "an", "he", "she", "it", "they", "we", "you", "but", "and", "when", "what", "then",
            "there", "this", "that", "yes", "no", "oh", "well", "if", "so", "as", "my", "his", "her", "our", "their",
            "your", "in", "on", "at", "of", "for", "with", "not", "now", "how", "mr", "mrs", "miss", "sir", "chapter",
            "session", "why", "who", "where", "which", "after", "before");

    private BridgeEntities() {}

    private static String withoutPossessive(String name) {
        return name.replaceFirst("['’]s$", "");
    }

    private static String withoutLeadingCommonWords(String name) {
        String rest = name;
        int space;
        while ((space = rest.indexOf(' ')) > 0
                && COMMON.contains(rest.substring(0, space).toLowerCase(Locale.ROOT))) {
            rest = rest.substring(space + 1).strip();
        }
        return rest;
    }

    private static boolean startsSentence(String text, int at) {
        int i = at - 1;
        while (i >= 0 && (Character.isWhitespace(text.charAt(i)) || "“\"'‘(".indexOf(text.charAt(i)) >= 0)) {
            i--;
        }
        return i < 0 || ".!?:;—".indexOf(text.charAt(i)) >= 0;
    }

    static List<String> from(List<SearchHit> hits, String question, int max) {
        String q = question.toLowerCase(Locale.ROOT);
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (SearchHit hit : hits) {
            Matcher m = NAME.matcher(hit.text());
            while (m.find()) {
                String raw = m.group().strip();
                String name = withoutPossessive(withoutLeadingCommonWords(raw));
                int nameStart = m.start() + raw.indexOf(name.isEmpty() ? raw : name);
                if (startsSentence(hit.text(), nameStart) && !name.contains(" ")) {
                    continue; // a capitalised first word is usually just a first word
                }
                String lower = name.toLowerCase(Locale.ROOT);
                if (COMMON.contains(lower) || name.length() < 3 || q.contains(lower)) {
                    continue;
                }
                counts.merge(name, 1, Integer::sum);
            }
        }
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue()
                        .reversed()
                        .thenComparing(e -> -e.getKey().length()))
                .limit(max)
                .map(Map.Entry::getKey)
                .toList();
    }
}
