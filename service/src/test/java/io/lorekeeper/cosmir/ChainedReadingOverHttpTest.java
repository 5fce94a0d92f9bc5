package io.lorekeeper.cosmir;

import static io.lorekeeper.llm.FakeOpenAi.completion;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.llm.FakeOpenAi;
import io.lorekeeper.llm.FakeOpenAiTest;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.SharedData;
import io.lorekeeper.text.Blocks;
import io.lorekeeper.text.SentenceSplitter;
import io.lorekeeper.text.Span;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * COSMIR and Chain of Agents end to end through the real OpenAI client stack against the WireMock
 * fake, over the opening chapters of Great Expectations from {@code ../shared/data}: every call
 * goes over HTTP with its JSON schema, the model's quotes (single-spaced, where the novel wraps its
 * lines) become citations that are the novel's own text at their offsets.
 */
@FakeOpenAiTest
class ChainedReadingOverHttpTest {
    private static final int CHUNK_TOKENS = 2000;
    private static final String NAMING =
            "my infant tongue could make of both names nothing longer or more explicit than Pip";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    private final FakeOpenAi fake = FakeOpenAi.get();

    @Test
    void cosmirReadsTheNovelChunkByChunkAndCitesTheFactsItsManagerNames() throws IOException {
        String text = opening();
        UUID doc = ingest(text);
        List<Blocks.Block> chunks = Blocks.split(text, 0, 0, CHUNK_TOKENS);
        assertThat(chunks.size()).isBetween(3, 6);
        String lastQuote = quoteFrom(text, chunks.getLast());

        List<FakeOpenAi.Response> replies = new ArrayList<>();
        replies.add(completion(json(Map.of("questions", List.of("What is the narrator called?", "Who raised him?")))));
        for (int j = 0; j < chunks.size(); j++) {
            boolean first = j == 0;
            boolean last = j == chunks.size() - 1;
            String quote = first ? NAMING : quoteFrom(text, chunks.get(j));
            replies.add(completion(json(
                    Map.of("facts", List.of(Map.of("fact", "Fact from chunk " + (j + 1) + ".", "quote", quote))))));
            replies.add(completion(json(Map.of(
                    "inferred",
                    last
                            ? List.of(Map.of(
                                    "fact",
                                    "The narrator Pip is the one the last chunk speaks of.",
                                    "basis",
                                    List.of("G1", "G" + (j + 1))))
                            : List.of()))));
            replies.add(completion(json(Map.of("questions", last ? List.of() : List.of("Who raised him?")))));
        }
        replies.add(completion(json(Map.of(
                "answer", "Pip", "rationale", "G1 gives the name.", "citedFacts", List.of("I1"), "confidence", 0.85))));
        fake.sequence(replies.toArray(FakeOpenAi.Response[]::new));

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(doc),
                "question",
                "What does the narrator call himself?",
                "strategy",
                "cosmir",
                "options",
                Map.of("chunkTokens", CHUNK_TOKENS)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Pip");
        List<FakeOpenAi.Request> requests = fake.requests();
        assertThat(requests).hasSize(2 + 3 * chunks.size());
        assertThat(requests).allSatisfy(r -> assertThat(r.hasJsonSchema()).isTrue());
        for (int j = 0; j < chunks.size(); j++) {
            String user = requests.get(1 + 3 * j).lastText("user");
            Blocks.Block chunk = chunks.get(j);
            assertThat(user)
                    .contains("Chunk " + (j + 1) + " of " + chunks.size() + ":")
                    .contains(text.substring(chunk.start(), Math.min(chunk.end(), chunk.start() + 200)));
        }
        assertThat(requests.get(1).jsonSchema().orElseThrow().toString())
                .contains("quote")
                .contains("fact");
        assertThat(requests.getLast().lastText("user"))
                .contains("[I1] The narrator Pip is the one the last chunk speaks of.");

        assertThat(answer.get("citations")).hasSize(2);
        JsonNode naming = answer.get("citations").get(0);
        String source =
                text.substring(naming.get("start").asInt(), naming.get("end").asInt());
        assertThat(naming.get("quote").asString())
                .isEqualTo(source)
                .contains("\n")
                .isNotEqualTo(NAMING);
        assertThat(source.replaceAll("\\s+", " ")).isEqualTo(NAMING);
        JsonNode later = answer.get("citations").get(1);
        String laterSource =
                text.substring(later.get("start").asInt(), later.get("end").asInt());
        assertThat(laterSource).isEqualTo(later.get("quote").asString());
        assertThat(laterSource.replaceAll("\\s+", " ")).isEqualTo(lastQuote);
        assertThat(later.get("start").asInt())
                .isGreaterThanOrEqualTo(chunks.getLast().start());

        UUID id = UUID.fromString(answer.get("id").asString());
        List<String> templates = jdbc.sql(
                        "SELECT template FROM llm_call WHERE question_id = ? AND outcome = 'ok' ORDER BY id")
                .param(id)
                .query(String.class)
                .list();
        assertThat(templates)
                .hasSize(2 + 3 * chunks.size())
                .startsWith("cosmir/plan", "cosmir/extract", "cosmir/infer", "cosmir/refine")
                .endsWith("cosmir/manage");
    }

    @Test
    void chainOfAgentsHandsItsSummaryOnAndCitesOnlyWhatItQuotedVerbatim() throws IOException {
        String text = opening();
        UUID doc = ingest(text);
        List<Blocks.Block> chunks = Blocks.split(text, 0, 0, CHUNK_TOKENS);
        List<FakeOpenAi.Response> replies = new ArrayList<>();
        for (int j = 0; j < chunks.size(); j++) {
            replies.add(completion(json(
                    Map.of("summary", "Summary after chunk " + (j + 1) + ": the narrator says \"" + NAMING + "\"."))));
        }
        replies.add(completion(
                json(Map.of("answer", "Pip", "confidence", 0.7, "quotes", List.of(NAMING, "the narrator says")))));
        fake.sequence(replies.toArray(FakeOpenAi.Response[]::new));

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(doc),
                "question",
                "What does the narrator call himself?",
                "strategy",
                "chain-of-agents",
                "options",
                Map.of("chunkTokens", CHUNK_TOKENS)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        List<FakeOpenAi.Request> requests = fake.requests();
        assertThat(requests).hasSize(chunks.size() + 1);
        assertThat(requests.get(1).lastText("user")).contains("Summary after chunk 1:");
        assertThat(requests.getLast().lastText("user"))
                .contains("Summary after chunk " + chunks.size() + ":")
                .doesNotContain(text.substring(
                        chunks.getLast().start(), chunks.getLast().start() + 200));
        assertThat(answer.get("citations")).hasSize(1);
        JsonNode citation = answer.get("citations").get(0);
        assertThat(text.substring(
                        citation.get("start").asInt(), citation.get("end").asInt()))
                .isEqualTo(citation.get("quote").asString());
    }

    /** Chapter I and the start of Chapter II, as the service stores them. */
    private static String opening() throws IOException {
        Path novelFile = SharedData.require("novels/great_expectations_pg1400.txt");
        String novel = Files.readString(novelFile).replace("\r\n", "\n").replace("\uFEFF", "");
        return novel.substring(0, novel.indexOf("\n\n", 24_000));
    }

    private UUID ingest(String text) {
        return api.ingest(Map.of("title", "Great Expectations, opening", "text", text, "profile", "retrieval-only"));
    }

    /** The first eight words of the chunk's third sentence, re-spaced the way a model copies them. */
    private static String quoteFrom(String text, Blocks.Block chunk) {
        String piece = text.substring(chunk.start(), chunk.end());
        List<Span> sentences = SentenceSplitter.split(piece);
        String sentence =
                sentences.get(Math.min(2, sentences.size() - 1)).of(piece).strip();
        String[] words = sentence.split("\\s+");
        return String.join(" ", java.util.Arrays.copyOf(words, Math.min(8, words.length)));
    }

    private static String json(Object value) {
        return JSON.writeValueAsString(value);
    }
}
