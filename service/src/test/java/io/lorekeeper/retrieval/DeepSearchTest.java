package io.lorekeeper.retrieval;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.document.search.ChunkIndex;
import io.lorekeeper.document.search.KeywordTerm;
import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.Api.Response;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * The deep mode's second pass bridges from what the first pass found: the question names Caroline
 * and her brother, one session says the brother is Tobias, another what Tobias does, and that one
 * shares no word with the question. Other people's jobs are closer to the question in meaning.
 */
@IntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeepSearchTest {

    private static final String BRIDGE = "Caroline said her younger brother is called Tobias Wexmoor.";
    private static final String EVIDENCE =
            "Tobias Wexmoor bakes rye loaves before dawn in a tiny shop beside the harbour.";
    private static final String QUESTION = "What does Caroline's brother do for a living?";
    private static final List<String> OTHERS = List.of(
            "Melanie works as a nurse on the night shift at the city hospital.",
            "Old Fergus earned his living as a fisherman for forty years.",
            "Priya is a software engineer and writes code for a bank.",
            "Jonas drives a delivery van for a living and hates the traffic.",
            "Amara teaches maths at the secondary school near the station.",
            "Caroline loves painting sunsets with watercolours on Sundays.",
            "Dmitri repairs bicycles in his garage to pay the rent.",
            "Helena is a lawyer who handles contracts for shipping firms.");

    @Autowired
    Api api;

    @Autowired
    Retriever retriever;

    UUID notes;

    @BeforeAll
    void ingest() {
        // one line per session: every line is its own chunk
        var conversation = aConversation().titled("Deep search notes " + UUID.randomUUID());
        conversation.session(null, "Narrator", OTHERS.get(0));
        conversation.session(null, "Narrator", BRIDGE);
        for (String line : OTHERS.subList(1, 5)) {
            conversation.session(null, "Narrator", line);
        }
        conversation.session(null, "Narrator", EVIDENCE);
        for (String line : OTHERS.subList(5, OTHERS.size())) {
            conversation.session(null, "Narrator", line);
        }
        notes = api.ingest(conversation.build());
    }

    @Test
    void deepSearchFindsTheEvidenceTheFirstPassMissed() {
        // four chunks hold a query term ("Caroline", "brother", "living"): both passes rank them first;
        // the fifth place goes to the best of the rest, which for the second pass is the bridged one
        int k = 5;
        List<String> hybrid = texts(search("hybrid", k));
        assertThat(hybrid)
                .as("the first pass finds the bridge but not the evidence")
                .anyMatch(t -> t.contains(BRIDGE))
                .noneMatch(t -> t.contains(EVIDENCE));

        JsonNode deep = search("deep", k);

        assertThat(deep.get("mode").asString()).isEqualTo("deep");
        assertThat(texts(deep)).hasSize(k).anyMatch(t -> t.contains(BRIDGE)).anyMatch(t -> t.contains(EVIDENCE));
    }

    @Test
    void theSecondPassSearchesWithTheFeedbackChunksRarestTerms() {
        List<SearchHit> first = retriever.hybrid(List.of(notes), QUESTION, 1);
        assertThat(first.getFirst().text()).contains(BRIDGE);

        SearchHit.ChunkKey top = new SearchHit.ChunkKey(
                first.getFirst().documentId(), first.getFirst().chunkOrdinal());
        List<KeywordTerm> terms =
                deepSearch.feedbackTerms(List.of(notes), List.of(top), QUESTION, DeepSearch.Settings.DEFAULT);

        assertThat(terms)
                .as("%s", chunkIndex.feedbackLexemes(List.of(notes), List.of(top), QUESTION))
                .extracting(KeywordTerm::lexeme)
                .contains("tobia", "wexmoor")
                .as("the query's own terms, and terms of most chunks")
                .doesNotContain("carolin", "brother", "session", "narrat");
        assertThat(terms).allSatisfy(t -> assertThat(t.weight()).isEqualTo(DeepSearch.Settings.DEFAULT.termWeight()));
    }

    @Test
    void deepHitsAreExactSpansOfTheCanonicalText() {
        for (JsonNode hit : search("deep", 5).get("hits")) {
            String source = api.get("/v1/documents/" + notes + "/text?start="
                            + hit.get("start").asInt() + "&end="
                            + hit.get("end").asInt())
                    .json()
                    .get("text")
                    .asString();
            assertThat(source).isEqualTo(hit.get("text").asString());
        }
    }

    @Autowired
    DeepSearch deepSearch;

    @Autowired
    ChunkIndex chunkIndex;

    private JsonNode search(String mode, int k) {
        Response response =
                api.post("/v1/search", Map.of("documentIds", List.of(notes), "query", QUESTION, "mode", mode, "k", k));
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return response.json();
    }

    private static List<String> texts(JsonNode response) {
        return response.get("hits")
                .valueStream()
                .map(h -> h.get("text").asString())
                .toList();
    }

    @Test
    void aHybridSearchHandsOverTheRankingsItFused() {
        Retriever.Hybrid hybrid = retriever.hybridRankings(List.of(notes), QUESTION, 2);

        assertThat(hybrid.fused()).isEqualTo(retriever.hybrid(List.of(notes), QUESTION, 2));
        assertThat(hybrid.byKeyword())
                .as("deeper than k, best first: what a keyword search of any depth up to it returns")
                .hasSizeGreaterThan(2)
                .startsWith(retriever.keyword(List.of(notes), QUESTION, 2).toArray(SearchHit[]::new));
        assertThat(hybrid.byVector())
                .hasSizeGreaterThan(2)
                .startsWith(retriever.vector(List.of(notes), QUESTION, 2).toArray(SearchHit[]::new));
    }
}
