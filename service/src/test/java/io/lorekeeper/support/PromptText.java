package io.lorekeeper.support;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reading a prompt the way the stand-in models do: how often a pattern occurs, and its first group. */
public final class PromptText {

    private PromptText() {}

    public static int count(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    /** The first group of the pattern's first match; empty when it does not match (or there is no text). */
    public static String group(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text == null ? "" : text);
        return m.find() ? m.group(1) : "";
    }
}
