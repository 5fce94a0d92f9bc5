package io.lorekeeper.memcot;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.annotation.JsonAlias;

/**
 * What a perception agent (zoom-in or zoom-out) says about the passages it was shown: which are
 * useful, by id, and what is still missing.
 */
record Perception(
        String thinking,
        @JsonAlias("missing_information") String missingInformation,
        @JsonAlias({"useful_ids", "useful_id"}) List<String> usefulIds) {

    Perception {
        usefulIds = usefulIds == null
                ? List.of()
                : usefulIds.stream().filter(id -> id != null && !id.isBlank()).toList();
        missingInformation = missingInformation == null ? "" : missingInformation.strip();
        thinking = thinking == null ? "" : thinking.strip();
    }

    /** A perception that keeps nothing: a reader with nothing to read, or whose reply was unusable. */
    static final Perception NOTHING = new Perception("", "", List.of());

    private static final Pattern LABEL = Pattern.compile("(?i)\\bD\\d+\\s*-\\s*C\\d+\\b");

    /** A prose reply where JSON was asked: the unit ids it mentions are what it found useful. */
    static Perception fromProse(String text) {
        return new Perception(text, "", labelsIn(text));
    }

    /** The unit labels ({@code D1-C12}) a text mentions, in order; only full labels, so prose numbers are not taken for ids. */
    static List<String> labelsIn(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = LABEL.matcher(text == null ? "" : text);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }
}
