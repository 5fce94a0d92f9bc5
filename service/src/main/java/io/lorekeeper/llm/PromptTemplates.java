package io.lorekeeper.llm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

/**
 * Prompt templates from {@code classpath:prompts/<name>.md}: a system part, a line
 * {@code === user ===}, and a user part, with {@code {{variable}}} placeholders.
 *
 * <p>Rendering is a single pass: an inserted value is never scanned again, so document text full
 * of braces, quotes or instructions stays data. Templates put such text inside tags
 * ({@code <passage>...</passage>}); a string value that tries to close one of our tags has the
 * closing sequence defused, so it cannot break out of its block. Markup the caller assembled
 * itself comes as {@link PromptMarkup} and goes in unchanged.
 */
@Component
class PromptTemplates {

    static final String USER_SEPARATOR = "=== user ===";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-zA-Z][a-zA-Z0-9_]*)}}");
    /** Any closing tag: a list of our own tags would miss the next one a prompt introduces. */
    private static final Pattern CLOSING_TAG = Pattern.compile("</([a-zA-Z][\\w-]*)\\b");

    private final Map<String, String> cache = new ConcurrentHashMap<>();

    record Rendered(String template, String system, String user) {}

    Rendered render(String template, Map<String, ?> variables) {
        String source = cache.computeIfAbsent(template, PromptTemplates::load);
        int split = source.indexOf(USER_SEPARATOR);
        if (split < 0) {
            throw new IllegalStateException("prompt " + template + " has no '" + USER_SEPARATOR + "' line");
        }
        String system = fill(template, source.substring(0, split).strip(), variables);
        String user =
                fill(template, source.substring(split + USER_SEPARATOR.length()).strip(), variables);
        // The first line names the task: visible in logs and lets test doubles route by template.
        return new Rendered(template, "[task: " + template + "]\n" + system, user);
    }

    private static String fill(String template, String text, Map<String, ?> variables) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            if (!variables.containsKey(name)) {
                throw new IllegalStateException("prompt " + template + " needs variable '" + name + "'");
            }
            Object value = variables.get(name);
            String inserted = value instanceof PromptMarkup markup ? markup.text() : defuse(String.valueOf(value));
            m.appendReplacement(out, Matcher.quoteReplacement(inserted));
        }
        m.appendTail(out);
        return out.toString();
    }

    static String defuse(String value) {
        return CLOSING_TAG.matcher(value).replaceAll("<\u200B/$1");
    }

    private static String load(String template) {
        if (!template.matches("[a-z0-9_-]+(/[a-z0-9_-]+)*")) {
            throw new IllegalArgumentException("bad template name " + template);
        }
        String path = "prompts/" + template + ".md";
        try (InputStream in = PromptTemplates.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing prompt template " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
