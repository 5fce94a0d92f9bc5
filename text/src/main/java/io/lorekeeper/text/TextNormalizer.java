package io.lorekeeper.text;

/**
 * Canonicalises incoming text so that offsets stay stable: line endings become {@code \n}, a
 * leading byte-order mark goes, and NUL characters (which PostgreSQL cannot store) are removed.
 */
public final class TextNormalizer {

    private TextNormalizer() {}

    public static String normalize(String text) {
        String s = text.startsWith("\uFEFF") ? text.substring(1) : text;
        if (s.indexOf('\r') >= 0) {
            s = s.replace("\r\n", "\n").replace('\r', '\n');
        }
        if (s.indexOf('\0') >= 0) {
            s = s.replace("\0", "");
        }
        return s;
    }
}
