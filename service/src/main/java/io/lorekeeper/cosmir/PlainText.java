package io.lorekeeper.cosmir;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What each COSMIR step keeps from a reply written as prose where JSON was asked: one item per
 * line (list markers dropped). A fact line's first double-quoted passage is taken as its quote,
 * and the fact ids an inference line mentions as its basis; lines that mention none stay
 * ungrounded and are dropped like any inference without a basis.
 */
final class PlainText {

    /** The manager's confidence when it answered in prose: it gave none, and named no facts. */
    static final double CONFIDENCE = 0.2;

    private static final Pattern MARKER = Pattern.compile("^\\s*(?:[-*•]|\\d+[.)])\\s+");
    private static final Pattern QUOTED = Pattern.compile("[\"“]([^\"”]{3,})[\"”]");
    private static final Pattern FACT_ID = Pattern.compile("\\b([GI]\\d+)\\b");
    /** A closing "(from G1, G3)" or "[G2]": the basis, said again in the memory's own form. */
    private static final Pattern TRAILING_IDS = Pattern.compile("\\s*[\\[(][^\\])]*\\b[GI]\\d+\\b[^\\])]*[\\])]\\W*$");

    private PlainText() {}

    static Replies.Plan plan(String prose) {
        return new Replies.Plan(null, questions(prose));
    }

    static Replies.Refined refined(String prose) {
        return new Replies.Refined(questions(prose));
    }

    static Replies.Extracted extracted(String prose) {
        List<Replies.Extracted.NewFact> facts = new ArrayList<>();
        for (String line : lines(prose)) {
            Matcher quoted = QUOTED.matcher(line);
            facts.add(new Replies.Extracted.NewFact(line, quoted.find() ? quoted.group(1) : null));
        }
        return new Replies.Extracted(facts);
    }

    static Replies.Inferred inferred(String prose) {
        List<Replies.Inferred.Inference> inferred = new ArrayList<>();
        for (String line : lines(prose)) {
            List<String> basis = new ArrayList<>();
            FACT_ID.matcher(line).results().map(m -> m.group(1)).forEach(basis::add);
            String text = TRAILING_IDS.matcher(line).replaceFirst("").strip();
            inferred.add(new Replies.Inferred.Inference(text.isEmpty() ? line : text, basis));
        }
        return new Replies.Inferred(inferred);
    }

    static Replies.Managed managed(String prose) {
        return new Replies.Managed(prose.strip(), null, List.of(), CONFIDENCE, null);
    }

    /** The lines that end in a question mark, or every line when none does. */
    private static List<String> questions(String prose) {
        List<String> lines = lines(prose);
        List<String> asked = lines.stream().filter(l -> l.endsWith("?")).toList();
        return asked.isEmpty() ? lines : asked;
    }

    static List<String> lines(String prose) {
        List<String> out = new ArrayList<>();
        for (String line : prose.split("\\R")) {
            String item = MARKER.matcher(line).replaceFirst("").strip();
            if (!item.isEmpty()) {
                out.add(item);
            }
        }
        return out;
    }
}
