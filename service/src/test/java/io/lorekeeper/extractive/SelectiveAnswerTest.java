package io.lorekeeper.extractive;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * Without a model the extractive strategy gives a short answer only when it is certain enough, and
 * otherwise the passages to read, said so in {@code answerKind}; a chapter heading is never either.
 */
@IntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SelectiveAnswerTest {

    /** A small book: chapters with title lines whose words questions about the chapter repeat. */
    private static final String BOOK = """
            CHAPTER I.

            THE HOUSE ON THE MARSH

            Old Mr. Hallam lived alone in a grey stone house called Brackenfold, at the edge of the marsh,
            with a dog that barked at the tide and a clock that had stopped at twenty minutes to nine.

            His niece came to him every Sunday with bread from the village and news from the town.

            CHAPTER II.

            THE LAWYER FROM LONDON

            In the spring a stranger came up the causeway in a black coat. He was a lawyer from London,
            and his name was Mr. Pennock; he had come about the will, and he would not say whose.

            Mr. Hallam gave him tea and asked nothing, and the lawyer went away before the tide came in.

            CHAPTER III.

            THE STORM

            The storm of that autumn broke the sea wall in three places, and the marsh was under water for a
            week. The niece's cottage was lost, and she came to live at Brackenfold for good.
            """;

    @Autowired
    Api api;

    private UUID book;

    @BeforeAll
    void ingest() {
        book = api.ingest(aText(BOOK).titled("Brackenfold").build());
    }

    private JsonNode ask(String question, Map<String, Object> options) {
        return api.ask(Map.of(
                "documentIds", List.of(book), "question", question, "strategy", "extractive", "options", options));
    }

    @Test
    void aChapterTitleIsNeitherTheAnswerNorAPassage() {
        for (String question : List.of("Who was the lawyer from London?", "What happened in the storm?")) {
            // 0: the short answer is given whenever one is found; 1: never, the passages are the answer
            for (double threshold : new double[] {0, 1}) {
                JsonNode answer = ask(question, Map.of("shortAnswerConfidence", threshold));
                assertThat(answer.get("status").asString()).isEqualTo("DONE");
                assertThat(answer.get("answer").asString())
                        .as(question)
                        .doesNotContain("THE LAWYER FROM LONDON")
                        .doesNotContain("THE STORM")
                        .doesNotContain("CHAPTER");
                for (JsonNode citation : answer.get("citations")) {
                    assertThat(citation.get("quote").asString()).doesNotContain("CHAPTER", "THE LAWYER");
                }
            }
        }
    }

    @Test
    void anAnswerThatIsNotInTheBookGetsPassagesWithLowConfidence() {
        JsonNode answer = ask("What was the name of the vicar's horse?", Map.of());

        assertThat(answer.get("answerKind").asString()).isEqualTo("passage");
        assertThat(answer.get("mode").asString()).isEqualTo("extractive");
        assertThat(answer.get("confidence").asDouble()).isLessThan(0.5);
        assertThat(answer.get("citations")).isNotEmpty();
        // the answer is the passages' text, verbatim, each cited at its offsets
        for (JsonNode citation : answer.get("citations")) {
            String quote = citation.get("quote").asString();
            assertThat(answer.get("answer").asString()).contains(quote);
            assertThat(BOOK.replace("\r\n", "\n")
                            .substring(
                                    citation.get("start").asInt(),
                                    citation.get("end").asInt()))
                    .isEqualTo(quote);
        }
        JsonNode passages = api.traceEvents(answer, "extractive.passages").getFirst();
        assertThat(passages.path("passages").asInt())
                .isEqualTo(answer.get("citations").size());
    }

    @Test
    void passagesKeepTheSentencesAroundTheBestOne() {
        JsonNode answer = ask("Where did the niece live after the storm?", Map.of("shortAnswerConfidence", 1));

        assertThat(answer.get("answerKind").asString()).isEqualTo("passage");
        assertThat(answer.get("answer").asString()).contains("she came to live at Brackenfold for good");
        assertThat(api.traceEvents(answer, "extractive.answer"))
                .as("the short answer found is kept in the trace, withheld")
                .hasSize(1);
    }

    @Test
    void aShortAnswerCertainEnoughIsGivenAsASpan() {
        JsonNode answer = ask("Who was the lawyer from London?", Map.of("shortAnswerConfidence", 0));

        assertThat(answer.get("answerKind").asString()).isEqualTo("span");
        assertThat(api.traceEvents(answer, "extractive.passages")).isEmpty();
    }
}
