package io.lorekeeper.document.files;

/**
 * An uploaded file's name as it is kept and shown: a display name, never a path. A client chooses the
 * name, so what it sends can be {@code ../../../../etc/passwd.txt}, carry control characters, or use a
 * right-to-left override to make {@code invoice\u202Etxt.exe} read as an innocent extension. Only the
 * last path segment is kept, without control, format (bidirectional overrides, zero-width) or
 * unpaired surrogate characters, with runs of white space as one space, and cut to
 * {@link #MAX_LENGTH} characters with its extension kept.
 */
public final class FileName {

    static final int MAX_LENGTH = 255;

    private FileName() {}

    public static String display(String sent) {
        if (sent == null) {
            return "";
        }
        String last = sent.substring(Math.max(sent.lastIndexOf('/'), sent.lastIndexOf('\\')) + 1);
        StringBuilder name = new StringBuilder(Math.min(last.length(), 4 * MAX_LENGTH));
        boolean space = false;
        for (int i = 0; i < last.length(); ) {
            int c = last.codePointAt(i);
            i += Character.charCount(c);
            int type = Character.getType(c);
            if (type == Character.CONTROL || type == Character.FORMAT || type == Character.SURROGATE) {
                continue;
            }
            if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
                space = !name.isEmpty();
                continue;
            }
            if (space) {
                name.append(' ');
                space = false;
            }
            name.appendCodePoint(c);
        }
        String display = name.toString();
        // a name of dots only would read as a directory
        if (display.chars().allMatch(c -> c == '.')) {
            return "";
        }
        return shortened(display);
    }

    /** At most {@link #MAX_LENGTH} characters, the extension kept, no surrogate pair cut in two. */
    private static String shortened(String name) {
        if (name.length() <= MAX_LENGTH) {
            return name;
        }
        int dot = name.lastIndexOf('.');
        String extension = dot > 0 && name.length() - dot <= 16 ? name.substring(dot) : "";
        int end = MAX_LENGTH - extension.length();
        if (Character.isHighSurrogate(name.charAt(end - 1))) {
            end--;
        }
        return name.substring(0, end) + extension;
    }
}
