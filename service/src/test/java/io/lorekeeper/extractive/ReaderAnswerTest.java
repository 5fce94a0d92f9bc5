package io.lorekeeper.extractive;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

import io.lorekeeper.memory.FaultInjectingEmbeddingModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.TestDatabase;
import io.lorekeeper.support.TestDatabaseInitializer;
import io.lorekeeper.support.TinyOnnx;
import tools.jackson.databind.JsonNode;

/**
 * The extractive strategy with a reader configured: a tiny model the test writes, whose start and end
 * logits are known word by word ("pennock" and "gannet" high, [CLS] between), so that what the strategy
 * answers can be checked against what the model says. The whole service against a real PostgreSQL, in a
 * context and database of its own.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"lorekeeper.llm.base-url=", "lorekeeper.llm.api-key="})
@ContextConfiguration(initializers = ReaderAnswerTest.WithReader.class)
@Import({FaultInjectingEmbeddingModel.Config.class, Api.Config.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReaderAnswerTest {

    /** A small book; "Gannet" is only in a chapter title, which the reader weighs above everything. */
    static final String BOOK = """
            CHAPTER I.

            THE LAWYER FROM LONDON

            In the spring a stranger came up the causeway in a black coat. He was a lawyer from London,
            and his name was Mr. Pennock; he had come about the will, and he would not say whose.

            Mr. Hallam gave him tea and asked nothing, and the lawyer went away before the tide came in.

            CHAPTER II.

            THE WRECK OF THE GANNET

            The storm of that autumn broke the sea wall in three places, and a ship was driven onto the
            rocks below the house. Her crew came ashore in the morning, cold and silent.
            """;

    /** Nothing in it is what the reader looks for: the no-answer score wins on every passage. */
    static final String VICARAGE = """
            The vicar rode to the market every Thursday and came back with the post and a loaf of bread.
            His housekeeper kept bees behind the church and sold the honey at the fair in August.
            """;

    static class WithReader implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            TestDatabaseInitializer.apply(TestDatabase.sibling("reader"), context);
            try {
                Path folder = TinyOnnx.folder(
                        Files.createTempDirectory("lorekeeper-reader").resolve("tiny-reader"),
                        TinyOnnx.reader(
                                Map.of("pennock", 8f, "gannet", 20f, "[CLS]", 6f),
                                Map.of("pennock", 8f, "gannet", 20f, "[CLS]", 6f)));
                TestPropertyValues.of("lorekeeper.extractive.reader.location=" + folder)
                        .applyTo(context);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Autowired
    Api api;

    private UUID book;
    private UUID vicarage;

    @BeforeAll
    void ingest() {
        book = api.ingest(aText(BOOK).titled("Brackenfold").build());
        vicarage = api.ingest(aText(VICARAGE).titled("The vicarage").build());
    }

    private JsonNode ask(UUID document, String question, Map<String, Object> options) {
        JsonNode answer = api.ask(Map.of(
                "documentIds", List.of(document), "question", question, "strategy", "extractive", "options", options));
        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        return answer;
    }

    @Test
    void theSpanTheReaderPointsAtIsTheAnswerCitedAtItsExactOffsets() {
        JsonNode answer = ask(book, "What was the name of the lawyer?", Map.of());

        assertThat(answer.get("answerKind").asString()).isEqualTo("span");
        assertThat(answer.get("answer").asString()).isEqualTo("Pennock");
        JsonNode citation = answer.get("citations").get(0);
        // the citations passed the service's verification: each quote is the source at its offsets
        assertThat(BOOK.substring(
                        citation.get("start").asInt(), citation.get("end").asInt()))
                .isEqualTo("Pennock");
        assertThat(citation.get("quote").asString()).isEqualTo("Pennock");
        JsonNode passage = answer.get("citations").get(1);
        assertThat(passage.get("quote").asString()).contains("his name was Mr. Pennock");
        assertThat(passage.get("start").asInt())
                .isLessThanOrEqualTo(citation.get("start").asInt());
        // the confidence is the reader's probability: one span far above every other
        assertThat(answer.get("confidence").asDouble()).isGreaterThan(0.9);

        JsonNode read = api.traceEvents(answer, "extractive.read").getFirst();
        assertThat(read.get("model").asString()).isEqualTo("tiny-reader");
        assertThat(read.get("answered").asBoolean()).isTrue();
        assertThat(read.get("chosen").get("text").asString()).isEqualTo("Pennock");
        assertThat(read.get("chosen").get("score").asDouble()).isEqualTo(16.0);
        assertThat(read.get("noAnswerScore").asDouble()).isEqualTo(12.0);
        assertThat(read.get("passages")).isNotEmpty();
        JsonNode features =
                api.traceEvents(answer, "extractive.answer").getFirst().get("confidenceFeatures");
        assertThat(features.get("readerProbability").asDouble()).isGreaterThan(0.9);
        assertThat(features.get("readerMargin").asDouble()).isEqualTo(4.0);
    }

    @Test
    void whenTheNoAnswerScoreWinsTheAnswerIsThePassagesWithLowConfidence() {
        // 0: any short answer found would be given, so only the no-answer comparison withholds it
        JsonNode answer = ask(vicarage, "What was the name of the vicar's horse?", Map.of("shortAnswerConfidence", 0));

        assertThat(answer.get("answerKind").asString()).isEqualTo("passage");
        assertThat(answer.get("confidence").asDouble()).isLessThan(0.5);
        assertThat(answer.get("citations")).isNotEmpty();
        for (JsonNode citation : answer.get("citations")) {
            assertThat(VICARAGE.substring(
                            citation.get("start").asInt(), citation.get("end").asInt()))
                    .isEqualTo(citation.get("quote").asString());
        }
        JsonNode read = api.traceEvents(answer, "extractive.read").getFirst();
        assertThat(read.get("answered").asBoolean()).isFalse();
        assertThat(read.get("chosen").get("score").asDouble())
                .isLessThan(read.get("noAnswerScore").asDouble());
        JsonNode passages = api.traceEvents(answer, "extractive.passages").getFirst();
        assertThat(passages.get("passageFeatures").has("readerNoAnswerProbability"))
                .isTrue();
    }

    @Test
    void aHeadingTheReaderWouldPickIsNotTheAnswer() {
        JsonNode answer = ask(book, "What happened to the Gannet?", Map.of("shortAnswerConfidence", 0));

        assertThat(answer.get("answer").asString()).doesNotContainIgnoringCase("gannet");
        int heading = BOOK.indexOf("THE WRECK OF THE GANNET");
        for (JsonNode citation : answer.get("citations")) {
            assertThat(citation.get("end").asInt() <= heading
                            || citation.get("start").asInt() >= heading + "THE WRECK OF THE GANNET".length())
                    .as("no citation covers the chapter title: %s", citation)
                    .isTrue();
        }
    }

    @Test
    void theReaderIsLeftOutForAQuestionThatAsksForTheRules() {
        JsonNode answer = ask(book, "What was the name of the lawyer?", Map.of("reader", false));

        assertThat(api.traceEvents(answer, "extractive.read")).isEmpty();
        assertThat(api.traceEvents(answer, "extractive.sentences")).isNotEmpty();
    }
}
