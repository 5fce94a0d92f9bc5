package io.lorekeeper.llm;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.springframework.ai.converter.BeanOutputConverter;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns a model reply into a Java record: strips reasoning blocks and code fences, takes the JSON
 * object out of any surrounding prose, binds it leniently (unknown fields ignored) and validates it
 * with Bean Validation. Failures carry a message meant to be shown to the model in a repair call.
 */
final class StructuredOutput {

    private static final Pattern THINKING = Pattern.compile("(?s)<(think|thinking|reasoning)>.*?</\\1>");
    private static final Pattern ORPHAN_THINKING_END = Pattern.compile("(?s)^.*</(think|thinking|reasoning)>");
    private static final Pattern FENCE = Pattern.compile("(?s)```(?:json)?\\s*(.*?)```");
    private static final JsonMapper STRICT = JsonMapper.builder().build();
    private static final Map<Class<?>, String> SCHEMAS = new ConcurrentHashMap<>();

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

    static String schemaOf(Class<?> type) {
        return SCHEMAS.computeIfAbsent(type, t -> new BeanOutputConverter<>(t).getJsonSchema());
    }

    <T> T parse(String reply, Class<T> type) {
        String body = extractJson(reply == null ? "" : reply);
        T value;
        try {
            value = json.readValue(body, type);
        } catch (RuntimeException e) {
            throw new InvalidReply("the reply is not JSON matching the schema: " + firstLine(e.getMessage()));
        }
        if (value == null) {
            throw new InvalidReply("the reply is empty");
        }
        Set<ConstraintViolation<T>> violations = validator.validate(value);
        if (!violations.isEmpty()) {
            throw new InvalidReply(violations.stream().map(v -> v.getPropertyPath() + " " + v.getMessage())
                    .sorted().collect(Collectors.joining("; ")));
        }
        return value;
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
        boolean inString = false;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        return -1;
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
