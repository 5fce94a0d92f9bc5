package io.lorekeeper.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builders for document requests, so tests state only what matters to them. */
public final class TestDocuments {

    private TestDocuments() {}

    public static TextBuilder aText(String text) {
        return new TextBuilder(text);
    }

    public static ConversationBuilder aConversation() {
        return new ConversationBuilder();
    }

    /**
     * A text of paragraphs long enough to be a chunk each: {@code nights} alike ones about a keeper
     * polishing a lens, then one per {@code oddOne} sentence, every paragraph carrying {@code marker} so
     * a search finds them; for tests where a reranker must lift an odd paragraph over the alike ones.
     */
    public static TextBuilder aLighthouseLog(String marker, int nights, String... oddOnes) {
        String filler = " The sea was calm and the rock was quiet.".repeat(40);
        List<String> paragraphs = new ArrayList<>();
        for (int i = 0; i < nights; i++) {
            paragraphs.add("The lighthouse keeper " + marker + " polished the great lens on night " + i + "." + filler);
        }
        for (String odd : oddOnes) {
            paragraphs.add(odd + " " + marker + "." + filler);
        }
        return aText(String.join("\n\n", paragraphs));
    }

    public static final class TextBuilder {
        private final Map<String, Object> body = new LinkedHashMap<>();

        private TextBuilder(String text) {
            body.put("text", text);
        }

        public TextBuilder titled(String title) {
            body.put("title", title);
            return this;
        }

        public TextBuilder withMetadata(Map<String, Object> metadata) {
            body.put("metadata", metadata);
            return this;
        }

        public Map<String, Object> build() {
            return body;
        }
    }

    public static final class ConversationBuilder {
        private final List<Map<String, Object>> sessions = new ArrayList<>();
        private String title = "A conversation";

        public ConversationBuilder titled(String title) {
            this.title = title;
            return this;
        }

        /** A session; turns alternate as {@code speaker, text, speaker, text...}. */
        public ConversationBuilder session(String dateTime, String... speakerAndText) {
            List<Map<String, Object>> turns = new ArrayList<>();
            for (int i = 0; i < speakerAndText.length; i += 2) {
                turns.add(Map.of("speaker", speakerAndText[i], "text", speakerAndText[i + 1]));
            }
            Map<String, Object> session = new LinkedHashMap<>();
            if (dateTime != null) {
                session.put("dateTime", dateTime);
            }
            session.put("turns", turns);
            sessions.add(session);
            return this;
        }

        public Map<String, Object> build() {
            return Map.of("title", title, "sessions", sessions);
        }
    }
}
