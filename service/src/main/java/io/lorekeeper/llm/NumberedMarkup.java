package io.lorekeeper.llm;

import java.util.List;
import java.util.Map;

/**
 * Numbered blocks of source text in a prompt (passages, excerpts, evidence), rendered one way for every
 * strategy: {@code <tag n="1" name="value">}, a line break, the text, a line break, {@code </tag>}.
 *
 * <p>One escaping rule: a block's text is untrusted data, so a closing tag inside it is defused
 * ({@link PromptMarkup#data}); an attribute value loses what could end the attribute or the tag (a double
 * quote becomes a single one, a line break a space) and is defused the same way. A block may instead hold
 * markup already rendered from data (nested passages), inserted as is.
 */
public final class NumberedMarkup {

    /** What follows each block: a blank line (most prompts) or a line break. */
    public enum Spacing {
        BLANK_LINE("\n\n"),
        LINE_BREAK("\n");

        private final String after;

        Spacing(String after) {
            this.after = after;
        }
    }

    /**
     * One block: its attributes after {@code n}, in their order (a null value leaves the attribute out),
     * and its body: untrusted text, or markup inserted as is.
     */
    public record Block(Map<String, String> attributes, String text, PromptMarkup markup) {

        public static Block of(String text) {
            return new Block(Map.of(), text, null);
        }

        public static Block of(String text, Map<String, String> attributes) {
            return new Block(attributes, text, null);
        }

        public static Block of(PromptMarkup markup) {
            return new Block(Map.of(), null, markup);
        }

        String body() {
            return markup != null ? markup.text() : PromptMarkup.data(text);
        }
    }

    private NumberedMarkup() {}

    /** The blocks numbered from 1 in {@code tag}s, each followed by a blank line. */
    public static PromptMarkup render(String tag, List<Block> blocks) {
        return render(tag, blocks, Spacing.BLANK_LINE);
    }

    public static PromptMarkup render(String tag, List<Block> blocks, Spacing spacing) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < blocks.size(); i++) {
            Block block = blocks.get(i);
            out.append('<').append(tag).append(" n=\"").append(i + 1).append('"');
            block.attributes().forEach((name, value) -> {
                if (value != null) {
                    out.append(' ')
                            .append(name)
                            .append("=\"")
                            .append(attribute(value))
                            .append('"');
                }
            });
            out.append(">\n")
                    .append(block.body())
                    .append("\n</")
                    .append(tag)
                    .append('>')
                    .append(spacing.after);
        }
        return PromptMarkup.of(out.toString());
    }

    /** An attribute value made safe: no double quote or line break to end it early, no closing tag. */
    public static String attribute(String value) {
        return PromptMarkup.data(
                value.replace('"', '\'').replace("\r\n", " ").replace('\n', ' ').replace('\r', ' '));
    }
}
