package io.lorekeeper.platform;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * The one rule for text a client sends: it must be storable as given. PostgreSQL refuses the NUL
 * character in {@code text} and {@code jsonb}, and an unpaired UTF-16 surrogate has no UTF-8
 * form, so the driver would store {@code ?} in its place and every offset cited into that text
 * would quote something the client never wrote. Both are refused at the edge, naming the field,
 * rather than failing (or silently changing) deep inside a job or an insert.
 */
public final class StorableText {

    private StorableText() {}

    /** {@code value}, or a 400 problem naming {@code field} when it cannot be stored as given. */
    public static String require(String field, String value) {
        String problem = problemOf(value);
        if (problem != null) {
            throw ApiProblem.invalid(field, problem);
        }
        return value;
    }

    /** Why {@code value} cannot be stored, or null when it can. */
    static String problemOf(String value) {
        if (value == null) {
            return null;
        }
        int nul = value.indexOf('\0');
        if (nul >= 0) {
            return "contains a NUL character (U+0000) at index " + nul + ", which cannot be stored";
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c)
                    && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return "contains an unpaired UTF-16 surrogate (U+"
                        + Integer.toHexString(c).toUpperCase(Locale.ROOT) + ") at index " + i
                        + ", which is not valid Unicode";
            }
        }
        return null;
    }

    /**
     * Holds every string and object key in {@code tree} to this rule, naming the first offender by
     * its path under {@code root} ({@code metadata.tags[1]}; an empty root names top-level fields
     * bare). Walks in document order without recursion: a client chooses how deep its JSON nests.
     */
    public static void requireIn(String root, JsonNode tree) {
        Deque<Map.Entry<String, JsonNode>> pending = new ArrayDeque<>();
        pending.push(Map.entry(root, tree));
        while (!pending.isEmpty()) {
            Map.Entry<String, JsonNode> next = pending.pop();
            String path = next.getKey();
            JsonNode node = next.getValue();
            if (node.isString()) {
                require(path.isEmpty() ? "body" : path, node.stringValue());
            } else if (node.isObject()) {
                Deque<Map.Entry<String, JsonNode>> children = new ArrayDeque<>();
                for (Map.Entry<String, JsonNode> property : node.properties()) {
                    String child = path.isEmpty() ? property.getKey() : path + "." + property.getKey();
                    require(child, property.getKey());
                    children.push(Map.entry(child, property.getValue()));
                }
                children.forEach(pending::push);
            } else if (node.isArray()) {
                for (int i = node.size() - 1; i >= 0; i--) {
                    pending.push(Map.entry(path + "[" + i + "]", node.get(i)));
                }
            }
        }
    }
}
