package io.lorekeeper.eval;

import java.util.ArrayList;
import java.util.List;

/** Finds a gold evidence snippet in a document's canonical text: verbatim, else with whitespace runs collapsed. */
final class TextLocator {

    private TextLocator() {
    }

    /** {start, end} of the snippet in the text, or null when it is not there. */
    static int[] find(String text, String snippet) {
        String needle = snippet.strip();
        if (needle.isEmpty()) {
            return null;
        }
        int at = text.indexOf(needle);
        if (at >= 0) {
            return new int[] {at, at + needle.length()};
        }
        // Collapse whitespace in both, keeping where each collapsed character came from.
        StringBuilder collapsed = new StringBuilder(text.length());
        List<Integer> origin = new ArrayList<>(text.length());
        boolean space = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                if (!space) {
                    collapsed.append(' ');
                    origin.add(i);
                }
                space = true;
            } else {
                collapsed.append(c);
                origin.add(i);
                space = false;
            }
        }
        String n = needle.replaceAll("\\s+", " ");
        int found = collapsed.indexOf(n);
        if (found < 0) {
            return null;
        }
        return new int[] {origin.get(found), origin.get(found + n.length() - 1) + 1};
    }
}
