package io.lorekeeper.retrieval;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.Api.Response;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

@IntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SearchApiTest {

    private static final List<String> FACTS = List.of(
            "The harbour of Port Ellen freezes only in the hardest winters.",
            "Morag Sinclair repaired fishing nets for the whole village.",
            "A copper kettle whistled on the stove of the bothy every evening.",
            "The ferry captain, Duncan Reid, distrusted every weather forecast.",
            "Snow lay on the peat stacks until the end of April.",
            "The distillery at Laphroaig smelled of smoke and seaweed.");

    @Autowired
    Api api;

    @Autowired
    Retriever retriever;

    @Autowired
    JdbcClient jdbc;

    UUID island;
    UUID other;
    UUID chat;
    UUID askAndAnswer;

    @BeforeAll
    void ingest() {
        // One fact per session: sessions never share a chunk, so each fact is its own chunk.
        var notes = aConversation().titled("Islay notes");
        for (String fact : FACTS) {
            notes.session(null, "Narrator", fact);
        }
        island = api.ingest(notes.build());
        other = api.ingest(aText("Morag Sinclair is also the name of a baker in a different town, who sold oat bread.")
                .build());
        chat = api.ingest(aConversation()
                .session(
                        "10:02 am on 3 March, 2024",
                        "Ewan",
                        "My sister just bought a sailing dinghy.",
                        "Isla",
                        "Where will she sail it?")
                .session("4:40 pm on 9 March, 2024", "Ewan", "She took the dinghy to Loch Lomond on Sunday.")
                .build());
        askAndAnswer = api.ingest(aConversation()
                .session(
                        "6:15 pm on 2 April, 2024",
                        "Fiona",
                        "Did you ever find out who took the lighthouse keeper's old brass telescope from the museum?",
                        "Callum",
                        "Aye, it turned out the harbourmaster borrowed it for the regatta and forgot to bring it back.")
                .build());
    }

    @Test
    void keywordSearchFindsTheChunkWithTheRareTerm() {
        JsonNode hits = search(List.of(island), "who repaired the fishing nets", "keyword", 3)
                .get("hits");

        assertThat(hits.get(0).get("text").asString()).contains("Morag Sinclair repaired fishing nets");
    }

    @Test
    void vectorSearchMatchesMeaningWithoutSharedWords() {
        JsonNode hits = search(List.of(island), "which boat skipper never trusted meteorologists", "vector", 6)
                .get("hits");

        assertThat(hits.get(0).get("text").asString()).contains("Duncan Reid");
    }

    @Test
    void hitsCarryExactSpansOfTheCanonicalText() {
        for (String mode : List.of("vector", "keyword", "hybrid")) {
            for (JsonNode hit :
                    search(List.of(island, other), "Morag Sinclair", mode, 5).get("hits")) {
                String source = api.get("/v1/documents/" + hit.get("documentId").asString() + "/text?start="
                                + hit.get("start").asInt() + "&end="
                                + hit.get("end").asInt())
                        .json()
                        .get("text")
                        .asString();
                assertThat(source).as(mode).isEqualTo(hit.get("text").asString());
                assertThat(hit.get("page").asInt()).isNotNegative();
            }
        }
    }

    @Test
    void searchIsConfinedToTheNamedDocuments() {
        for (String mode : List.of("vector", "keyword", "hybrid")) {
            JsonNode hits = search(List.of(other), "Morag Sinclair fishing nets", mode, 10)
                    .get("hits");
            assertThat(hits).isNotEmpty();
            hits.forEach(hit -> assertThat(hit.get("documentId").asString()).isEqualTo(other.toString()));
        }
    }

    @Test
    void hybridSearchFusesBothRankings() {
        List<SearchHit> vector = retriever.vector(List.of(island), "kettle on the stove", 30);
        List<SearchHit> keyword = retriever.keyword(List.of(island), "kettle on the stove", 30);
        List<SearchHit> hybrid = retriever.hybrid(List.of(island), "kettle on the stove", 3);

        assertThat(hybrid).first().satisfies(top -> assertThat(top.text()).contains("copper kettle"));
        SearchHit first = hybrid.getFirst();
        int vectorRank = ranks(vector).indexOf(first.chunkOrdinal()) + 1;
        int keywordRank = ranks(keyword).indexOf(first.chunkOrdinal()) + 1;
        assertThat(vectorRank).isPositive();
        assertThat(keywordRank).isPositive();
        assertThat(first.score()).isCloseTo(1.0 / (60 + vectorRank) + 1.0 / (60 + keywordRank), Offset.offset(1e-9));
    }

    @Test
    void keywordScoresAreOkapiBm25OverTheSearchedDocuments() {
        List<SearchHit> hits = retriever.keyword(List.of(island), "copper kettle", 5);

        assertThat(hits).hasSize(1);
        SearchHit hit = hits.getFirst();
        double n = 6;
        double avgdl = jdbc.sql("SELECT avg(term_count) FROM chunk WHERE document_id = ?")
                .param(island)
                .query(Double.class)
                .single();
        double dl = jdbc.sql("SELECT term_count FROM chunk WHERE document_id = ? AND ordinal = ?")
                .params(island, hit.chunkOrdinal())
                .query(Double.class)
                .single();
        double idf = Math.log(1 + (n - 1 + 0.5) / (1 + 0.5));
        double perTerm = idf * (1 * (0.9 + 1)) / (1 + 0.9 * (1 - 0.4 + 0.4 * dl / avgdl));
        assertThat(hit.score()).isCloseTo(2 * perTerm, Offset.offset(1e-9));
    }

    @Test
    void conversationHitsNameTheirTurnsAndSessionHeadersTravelWithTheFirstChunk() {
        JsonNode hits = search(List.of(chat), "Loch Lomond dinghy", "hybrid", 3).get("hits");

        JsonNode top = hits.get(0);
        assertThat(top.get("text").asString())
                .contains("[Session 2, 4:40 pm on 9 March, 2024]")
                .contains("Loch Lomond");
        assertThat(top.get("turnIds")).extracting(JsonNode::asString).containsExactly("D2:1");
        assertThat(top.get("speakers")).extracting(JsonNode::asString).containsExactly("Ewan");
    }

    @Test
    void aTurnIsFoundByTheWordsOfTheTurnItAnswersWithoutThemInItsText() {
        List<SearchHit> hits = retriever.keyword(List.of(askAndAnswer), "brass telescope", 5);

        assertThat(hits).extracting(SearchHit::turnIds).containsExactly(List.of("D1:1"), List.of("D1:2"));
        SearchHit answer = hits.get(1);
        assertThat(answer.text()).startsWith("Callum: Aye").doesNotContain("telescope");
        assertThat(answer.speakers()).containsExactly("Callum");
        assertThat(retriever.hybrid(List.of(askAndAnswer), "who borrowed the telescope", 2))
                .extracting(SearchHit::speakers)
                .containsExactlyInAnyOrder(List.of("Fiona"), List.of("Callum"));
    }

    @Test
    void windowAddsNeighbouringChunksAsContext() {
        // one fact per session, so one chunk each: the hit is the third chunk, its neighbours the second and fourth
        JsonNode hit = search(List.of(island), "copper kettle whistled", "keyword", 1, 1)
                .get("hits")
                .get(0);
        assertThat(hit.get("text").asString()).contains(FACTS.get(2));
        List<SearchHit> chunks = retriever.chunks(island, 0, FACTS.size() - 1);
        SearchHit before = chunks.get(hit.get("chunk").asInt() - 1);
        SearchHit after = chunks.get(hit.get("chunk").asInt() + 1);

        JsonNode context = hit.get("context");

        assertThat(context.get("start").asInt())
                .isEqualTo(before.start())
                .isLessThan(hit.get("start").asInt());
        assertThat(context.get("end").asInt())
                .isEqualTo(after.end())
                .isGreaterThan(hit.get("end").asInt());
        assertThat(context.get("text").asString())
                .isEqualTo(sourceText(island, before.start(), after.end()))
                .contains(FACTS.get(1))
                .contains(FACTS.get(2))
                .contains(FACTS.get(3))
                .doesNotContain(FACTS.get(0))
                .doesNotContain(FACTS.get(4));
        assertThat(search(List.of(island), "copper kettle whistled", "keyword", 1, 0)
                        .get("hits")
                        .get(0)
                        .has("context"))
                .as("no window, no context")
                .isFalse();
        // at the edge of the document the window is cut, not shifted
        JsonNode first = search(List.of(island), "harbour freezes", "keyword", 1, 2)
                .get("hits")
                .get(0);
        assertThat(first.get("chunk").asInt()).isZero();
        assertThat(first.get("context").get("start").asInt())
                .isEqualTo(first.get("start").asInt());
        assertThat(first.get("context").get("end").asInt())
                .isEqualTo(chunks.get(2).end());
    }

    @Test
    void documentsThatCannotBeSearchedAreProblemsNamingDocumentIds() {
        // The request's own bounds (query, mode, k, window) are SearchControllerTest's.
        assertField(api.post("/v1/search", Map.of("documentIds", List.of(), "query", "x")), 400, "documentIds");
        assertField(
                api.post("/v1/search", Map.of("documentIds", List.of(UUID.randomUUID()), "query", "x")),
                404,
                "documentIds");
    }

    private JsonNode search(List<UUID> documentIds, String query, String mode, int k) {
        return search(documentIds, query, mode, k, 0);
    }

    private JsonNode search(List<UUID> documentIds, String query, String mode, int k, int window) {
        Response response = api.post(
                "/v1/search",
                Map.of("documentIds", documentIds, "query", query, "mode", mode, "k", k, "window", window));
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return response.json();
    }

    private String sourceText(UUID document, int start, int end) {
        return api.get("/v1/documents/" + document + "/text?start=" + start + "&end=" + end)
                .json()
                .get("text")
                .asString();
    }

    private static List<Integer> ranks(List<SearchHit> hits) {
        List<Integer> ordinals = new ArrayList<>();
        hits.forEach(h -> ordinals.add(h.chunkOrdinal()));
        return ordinals;
    }

    private static void assertField(Response response, int status, String field) {
        assertThat(response.status()).as(response.body()).isEqualTo(status);
        assertThat(response.json().get("field").asString()).isEqualTo(field);
    }
}
