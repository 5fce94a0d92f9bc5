package io.lorekeeper.llm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.validation.Validator;
import jakarta.validation.constraints.Size;

import org.springframework.ai.converter.BeanOutputConverter;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;

/**
 * Turns a model reply into a Java record: strips reasoning blocks and code fences, takes the JSON
 * object out of any surrounding prose, binds it leniently (unknown fields ignored) and validates it
 * with Bean Validation.
 *
 * <p>Real models get most of a reply right and one item wrong (a page number out of range, an
 * unknown enum value, a field of the wrong type). Failing the whole reply for that throws away
 * the usable rest, so an invalid element of a list is dropped and reported, a list longer than its
 * {@code @Size(max)} is cut, and only a reply whose top level is unusable is refused. Refusals
 * carry a message meant to be shown to the model in a repair call.
 */
final class StructuredOutput {

    private static final Pattern THINKING = Pattern.compile("(?s)<(think|thinking|reasoning)>.*?</\\1>");
    private static final Pattern ORPHAN_THINKING_END = Pattern.compile("(?s)^.*</(think|thinking|reasoning)>");
    private static final Pattern FENCE = Pattern.compile("(?s)```(?:json)?\\s*(.*?)```");
    private static final JsonMapper STRICT = JsonMapper.builder().build();
    private static final Map<Class<?>, String> SCHEMAS = new ConcurrentHashMap<>();
    /** Each pass removes at least one element; a reply with more broken items than this is not worth keeping. */
    private static final int MAX_PASSES = 64;

    private final JsonMapper json = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
    private final Validator validator;

    StructuredOutput(Validator validator) {
        this.validator = validator;
    }

    static final class InvalidReply extends RuntimeException {
        InvalidReply(String message) {
            super(message);
        }
    }

    /** A bound reply and the items that had to be dropped from it. */
    record Parsed<T>(T value, List<Dropped> dropped) {}

    /** An item left out of a reply: where it was ({@code pages[2]}) and what was wrong with it. */
    record Dropped(String path, String reason) {}

    static String schemaOf(Class<?> type) {
        return SCHEMAS.computeIfAbsent(
                type, t -> SchemaConstraints.addTo(new BeanOutputConverter<>(t).getJsonSchema(), t));
    }

    <T> T parse(String reply, Class<T> type) {
        return read(reply, type).value();
    }

    <T> Parsed<T> read(String reply, Class<T> type) {
        JsonNode tree;
        try {
            tree = STRICT.readTree(extractJson(reply == null ? "" : reply));
        } catch (RuntimeException e) {
            throw new InvalidReply("the reply is not JSON matching the schema: " + firstLine(e.getMessage()));
        }
        if (tree == null || !tree.isObject()) {
            throw new InvalidReply(
                    tree == null || tree.isMissingNode() ? "the reply is empty" : "the reply is not a JSON object");
        }
        List<Dropped> dropped = new ArrayList<>();
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            T value;
            try {
                value = json.treeToValue(tree, type);
            } catch (JacksonException e) {
                if (!dropElementAt(tree, e.getPath(), firstLine(e.getOriginalMessage()), dropped)) {
                    throw new InvalidReply(
                            "the reply is not JSON matching the schema: " + firstLine(e.getOriginalMessage()));
                }
                continue;
            }
            if (value == null) {
                throw new InvalidReply("the reply is empty");
            }
            Set<ConstraintViolation<T>> violations = validator.validate(value);
            if (violations.isEmpty()) {
                return new Parsed<>(value, List.copyOf(dropped));
            }
            if (!dropInvalidItems(tree, violations, dropped)) {
                throw new InvalidReply(violations.stream()
                        .map(v -> v.getPropertyPath() + " " + v.getMessage())
                        .sorted()
                        .collect(Collectors.joining("; ")));
            }
        }
        throw new InvalidReply("too many invalid items in the reply");
    }

    /**
     * The complete part of a reply cut at the output limit: the JSON object up to its last complete
     * item, with the lists and objects still open closed after it, bound as {@link #read} binds. Tries
     * the latest cut points first; fails when no prefix binds (the cut fell inside a required field).
     */
    <T> Parsed<T> readCut(String partial, Class<T> type) {
        String text = plainText(partial);
        int fence = text.indexOf("```");
        if (fence >= 0) {
            text = text.substring(fence + 3).replaceFirst("^json", "");
        }
        int start = text.indexOf('{');
        if (start < 0) {
            throw new InvalidReply("the cut reply holds no JSON object");
        }
        List<String> candidates = cutPoints(text.substring(start));
        InvalidReply last = new InvalidReply("the cut reply holds no complete item");
        for (int i = candidates.size() - 1, tried = 0; i >= 0 && tried < MAX_CUT_ATTEMPTS; i--, tried++) {
            try {
                return read(candidates.get(i), type);
            } catch (InvalidReply invalid) {
                last = invalid;
            }
        }
        throw last;
    }

    /** Cut points a reply is tried at, from its end backwards; each costs a parse. */
    private static final int MAX_CUT_ATTEMPTS = 40;

    /**
     * Every prefix of {@code json} that ends after a complete value inside an object or list (before
     * a comma, after a closing bracket), closed into a whole JSON text; in order of position.
     */
    static List<String> cutPoints(String json) {
        List<String> out = new ArrayList<>();
        StringBuilder open = new StringBuilder();
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            switch (c) {
                case '"' -> i = stringEnd(json, i);
                case '{', '[' -> open.append(c);
                case '}', ']' -> {
                    if (open.isEmpty()) {
                        return out;
                    }
                    open.setLength(open.length() - 1);
                    if (open.isEmpty()) {
                        out.add(json.substring(0, i + 1));
                        return out;
                    }
                    out.add(json.substring(0, i + 1) + closing(open));
                }
                case ',' -> {
                    if (!open.isEmpty()) {
                        out.add(json.substring(0, i) + closing(open));
                    }
                }
                default -> {}
            }
        }
        return out;
    }

    private static String closing(CharSequence open) {
        StringBuilder out = new StringBuilder();
        for (int i = open.length() - 1; i >= 0; i--) {
            out.append(open.charAt(i) == '{' ? '}' : ']');
        }
        return out.toString();
    }

    /**
     * Removes the list elements the violations lie in (the innermost list element of each path), and
     * cuts lists that are only too long. False when some violation is outside every list: the reply's
     * top level is wrong, and only the model can fix that.
     */
    private static <T> boolean dropInvalidItems(
            JsonNode tree, Set<ConstraintViolation<T>> violations, List<Dropped> dropped) {
        Map<String, Removal> removals = new LinkedHashMap<>();
        for (ConstraintViolation<T> violation : violations) {
            List<Object> path = pathOf(violation.getPropertyPath());
            int lastIndex = -1;
            for (int i = 0; i < path.size(); i++) {
                if (path.get(i) instanceof Integer) {
                    lastIndex = i;
                }
            }
            String message = violation.getPropertyPath() + " " + violation.getMessage();
            if (lastIndex >= 0) {
                List<Object> element = path.subList(0, lastIndex + 1);
                removals.putIfAbsent(key(element), new Removal(List.copyOf(element), message, -1));
            } else if (violation.getConstraintDescriptor().getAnnotation() instanceof Size size
                    && nodeAt(tree, path) instanceof ArrayNode array
                    && array.size() > size.max()) {
                removals.putIfAbsent(key(path), new Removal(List.copyOf(path), message, size.max()));
            } else {
                return false;
            }
        }
        // later elements first, so that removing one does not shift the others' indexes
        List<Removal> ordered = new ArrayList<>(removals.values());
        ordered.sort((a, b) -> comparePaths(b.path(), a.path()));
        for (Removal removal : ordered) {
            List<Object> parentPath = removal.path().subList(0, removal.path().size() - (removal.keep() >= 0 ? 0 : 1));
            if (!(nodeAt(tree, parentPath) instanceof ArrayNode array)) {
                return false;
            }
            if (removal.keep() >= 0) {
                while (array.size() > removal.keep()) {
                    array.remove(array.size() - 1);
                }
                dropped.add(new Dropped(key(removal.path()) + "[" + removal.keep() + ":]", removal.reason()));
            } else {
                int index = (Integer) removal.path().getLast();
                if (index >= array.size()) {
                    return false;
                }
                array.remove(index);
                dropped.add(new Dropped(key(removal.path()), removal.reason()));
            }
        }
        return !removals.isEmpty();
    }

    private record Removal(List<Object> path, String reason, int keep) {}

    /** Drops the innermost list element on a binding error's path (a wrong type or an unknown enum value in one item). */
    private static boolean dropElementAt(
            JsonNode tree, List<JacksonException.Reference> references, String reason, List<Dropped> dropped) {
        List<Object> path = new ArrayList<>();
        int lastIndex = -1;
        for (JacksonException.Reference reference : references) {
            if (reference.getPropertyName() != null) {
                path.add(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                lastIndex = path.size();
                path.add(reference.getIndex());
            }
        }
        if (lastIndex < 0) {
            return false;
        }
        List<Object> element = path.subList(0, lastIndex + 1);
        if (!(nodeAt(tree, element.subList(0, lastIndex)) instanceof ArrayNode array)
                || (Integer) element.getLast() >= array.size()) {
            return false;
        }
        array.remove((int) (Integer) element.getLast());
        dropped.add(new Dropped(key(element), reason));
        return true;
    }

    /** A validation path as property names and list indexes: {@code pages[0].doc} is [pages, 0, doc]. */
    private static List<Object> pathOf(Path propertyPath) {
        List<Object> path = new ArrayList<>();
        for (Path.Node node : propertyPath) {
            if (node.getIndex() != null) {
                path.add(node.getIndex());
            }
            if (node.getName() != null && node.getKind() == ElementKind.PROPERTY) {
                path.add(node.getName());
            }
        }
        return path;
    }

    private static JsonNode nodeAt(JsonNode tree, List<Object> path) {
        JsonNode node = tree;
        for (Object step : path) {
            if (node == null) {
                return null;
            }
            node = step instanceof Integer index ? node.get(index) : node.get((String) step);
        }
        return node;
    }

    private static String key(List<Object> path) {
        StringBuilder out = new StringBuilder();
        for (Object step : path) {
            if (step instanceof Integer index) {
                out.append('[').append(index).append(']');
            } else {
                out.append(out.isEmpty() ? "" : ".").append(step);
            }
        }
        return out.toString();
    }

    private static int comparePaths(List<Object> a, List<Object> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i) instanceof Integer x && b.get(i) instanceof Integer y
                    ? Integer.compare(x, y)
                    : String.valueOf(a.get(i)).compareTo(String.valueOf(b.get(i)));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /**
     * Whether the reply is, or tries to be, a JSON object (as opposed to an answer in plain prose):
     * broken JSON is not prose, and must not become an answer's text.
     */
    static boolean containsJson(String reply) {
        String text = plainText(reply);
        String body = extractJson(text);
        return (body.startsWith("{") && isJson(body)) || text.matches("(?s).*\\{\\s*\".*");
    }

    /** The reply without reasoning blocks, for use as plain text. */
    static String plainText(String reply) {
        String text = THINKING.matcher(reply == null ? "" : reply).replaceAll("");
        Matcher orphan = ORPHAN_THINKING_END.matcher(text);
        return (orphan.find() ? text.substring(orphan.end()) : text).strip();
    }

    static String extractJson(String reply) {
        String text = THINKING.matcher(reply).replaceAll("");
        // reasoning models served with the opening tag in their chat template emit only the closing one
        Matcher orphan = ORPHAN_THINKING_END.matcher(text);
        if (orphan.find()) {
            text = text.substring(orphan.end());
        }
        text = text.strip();
        var fence = FENCE.matcher(text);
        if (fence.find()) {
            text = fence.group(1).strip();
        }
        // the first balanced {...} that is JSON: prose around it may contain braces of its own
        for (int start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
            int end = closingBrace(text, start);
            if (end > start && isJson(text.substring(start, end + 1))) {
                return text.substring(start, end + 1);
            }
        }
        int start = text.indexOf('{');
        int end = text.lastIndexOf('}');
        return start >= 0 && end > start ? text.substring(start, end + 1) : text;
    }

    /** Index of the brace closing the object opened at {@code start}, skipping braces inside strings; -1 if none. */
    private static int closingBrace(String text, int start) {
        int depth = 0;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                i = stringEnd(text, i);
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Index of the quote closing the JSON string whose opening quote is at {@code open}, escaped
     * characters skipped; the text's length if the string is not closed.
     */
    private static int stringEnd(String text, int open) {
        for (int i = open + 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                return i;
            }
        }
        return text.length();
    }

    private static boolean isJson(String candidate) {
        try {
            return STRICT.readTree(candidate).isObject();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
