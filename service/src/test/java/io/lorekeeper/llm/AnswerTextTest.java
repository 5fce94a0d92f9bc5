package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class AnswerTextTest {

    /** Feeds the reply cut into pieces of {@code size} characters and returns what came out, joined. */
    private static String streamed(String reply, int size) {
        AnswerText text = new AnswerText();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < reply.length(); i += size) {
            out.append(text.feed(reply.substring(i, Math.min(reply.length(), i + size))));
        }
        return out.toString();
    }

    @Test
    void streamsTheAnswerFieldOfAJsonReplyWhateverTheCuts() {
        String reply = """
                {"understanding": "who \\"answer\\": lit it", "answer": "Angus Mackay lit it in 1912.\\nHe was the keeper \\u00e9 \\"Gus\\".",
                 "evidence": [{"answer": "not this", "quote": "q"}], "confidence": 0.8}""";
        for (int size : List.of(1, 2, 3, 7, 50, 1000)) {
            assertThat(streamed(reply, size))
                    .as("pieces of %d", size)
                    .isEqualTo("Angus Mackay lit it in 1912.\nHe was the keeper é \"Gus\".");
        }
    }

    @Test
    void aNestedAnswerKeyOrANullAnswerStreamsNothing() {
        assertThat(streamed("{\"evidence\": [{\"answer\": \"nested\"}], \"answer\": null, \"choice\": 2}", 3))
                .isEmpty();
    }

    @Test
    void proseIsStreamedAsItIsAndAFencedJsonReplyAsJson() {
        assertThat(streamed("  Angus Mackay, the keeper.", 4)).isEqualTo("Angus Mackay, the keeper.");
        assertThat(streamed("```json\n{\"answer\": \"Angus\"}\n```", 2)).isEqualTo("Angus");
        assertThat(streamed("`Angus` lit the lamp, in 1912 or so.", 2))
                .isEqualTo("`Angus` lit the lamp, in 1912 or so.");
    }
}
