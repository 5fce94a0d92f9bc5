package io.lorekeeper.document.search;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.platform.SearchDatabase;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;

/**
 * The in-memory keyword index against the SQL it replaces, on real PostgreSQL full-text vectors:
 * the same chunks in the same order with the same scores (to rounding) wherever the SQL's
 * candidate budget does not cut in; a document whose chunks change is read again; documents past
 * the posting budget are dropped and read again without changing a result.
 */
@IntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KeywordIndexTest {

    /** Words drawn with Zipf frequencies, so that some are in most chunks and some in a few. */
    private static final List<String> WORDS = List.of(
            "lantern",
            "harbour",
            "keeper",
            "storm",
            "ship",
            "captain",
            "rope",
            "tide",
            "gull",
            "island",
            "fog",
            "bell",
            "anchor",
            "sail",
            "wreck",
            "lighthouse",
            "cliff",
            "herring",
            "quay",
            "mast",
            "compass",
            "chart",
            "oar",
            "beacon",
            "cargo",
            "brine",
            "kelp",
            "reef",
            "shoal",
            "pilot",
            "skiff",
            "ballast",
            "galley",
            "hull",
            "mooring",
            "rudder",
            "schooner",
            "tackle",
            "whaler",
            "barnacle",
            "driftwood",
            "estuary",
            "fathom",
            "gangway",
            "hawser",
            "inlet",
            "jetty",
            "keel",
            "lagoon",
            "marlin",
            "narwhal",
            "oilskin",
            "porthole");

    private static final String[] FILLER = {"the", "and", "of", "was", "at", "on", "with"};

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    SearchDatabase database;

    @Autowired
    KeywordIndex index;

    List<UUID> corpus = new ArrayList<>();

    @BeforeAll
    void ingest() {
        Random random = new Random(17);
        for (int d = 0; d < 3; d++) {
            corpus.add(api.ingest(aText(prose(random, 2500 + 1500 * d))
                    .titled("Harbour log " + d + " " + UUID.randomUUID())
                    .build()));
        }
    }

    private static String prose(Random random, int words) {
        StringBuilder text = new StringBuilder();
        for (int w = 0; w < words; w++) {
            text.append(random.nextInt(3) == 0 ? FILLER[random.nextInt(FILLER.length)] : word(random));
            text.append(w % 14 == 13 ? ".\n" : " ");
        }
        return text.toString();
    }

    private static String word(Random random) {
        double u = random.nextDouble() * Math.log(WORDS.size() + 1.0);
        return WORDS.get(Math.min(WORDS.size() - 1, (int) Math.exp(u) - 1));
    }

    private static String query(Random random) {
        StringBuilder query = new StringBuilder("where was the");
        for (int w = 0, n = 1 + random.nextInt(6); w < n; w++) {
            query.append(' ').append(WORDS.get(random.nextInt(WORDS.size())));
        }
        return query.append('?').toString();
    }

    /** The SQL with a budget nothing here reaches: every chunk holding a query term is a candidate. */
    private List<SearchHit> sql(List<UUID> documents, String query, List<KeywordTerm> feedback, int k) {
        return new KeywordSearch(jdbc, 1_000_000).search(documents, query, feedback, k);
    }

    /**
     * The same hits with the same scores in the same order, except among hits whose scores tie: the two sum
     * the same terms in another order, so equal scores can differ in the last bit and come out either way
     * (and a tie that straddles k may keep either hit).
     */
    private static void assertSameRanking(List<SearchHit> memory, List<SearchHit> sql, String query) {
        assertThat(memory).as(query).hasSameSizeAs(sql);
        for (int i = 0; i < sql.size(); i++) {
            assertThat(memory.get(i).score()).as(query).isCloseTo(sql.get(i).score(), Offset.offset(1e-9));
        }
        double last = sql.isEmpty() ? 0 : sql.getLast().score();
        assertThat(tiesOrdered(memory, last))
                .as(query)
                .extracting(SearchHit::key)
                .containsExactlyElementsOf(
                        tiesOrdered(sql, last).stream().map(SearchHit::key).toList());
        for (SearchHit hit : memory) {
            sql.stream().filter(h -> h.key().equals(hit.key())).findFirst().ifPresent(same -> {
                assertThat(hit.text()).isEqualTo(same.text());
                assertThat(hit.start()).isEqualTo(same.start());
            });
        }
    }

    /** The hits above the last score, in score order with ties by chunk; those tied with the last left out. */
    private static List<SearchHit> tiesOrdered(List<SearchHit> hits, double last) {
        return hits.stream()
                .filter(h -> h.score() > last + 1e-9)
                .sorted(java.util.Comparator.comparingDouble((SearchHit h) -> -Math.round(h.score() * 1e8) / 1e8)
                        .thenComparing(h -> h.documentId().toString())
                        .thenComparingInt(SearchHit::chunkOrdinal))
                .toList();
    }

    @Test
    void ranksAndScoresAsTheSqlDoes() {
        Random random = new Random(23);
        for (int q = 0; q < 40; q++) {
            String query = query(random);
            List<UUID> documents = q % 4 == 0 ? List.of(corpus.get(q % 3)) : corpus;
            int k = 1 + random.nextInt(20);

            List<SearchHit> memory = index.search(documents, query, List.of(), k);

            assertThat(memory).as(query).isNotEmpty();
            assertSameRanking(memory, sql(documents, query, List.of(), k), query);
        }
    }

    @Test
    void feedbackTermsCountWithTheirWeightAsInTheSql() {
        List<KeywordTerm> feedback =
                List.of(new KeywordTerm("narwhal", 3, 2.5, 0.4), new KeywordTerm("oilskin", 5, 2.0, 0.3));
        String query = "Did the keeper see the storm from the lighthouse?";

        List<SearchHit> memory = index.search(corpus, query, feedback, 12);

        assertSameRanking(memory, sql(corpus, query, feedback, 12), query);
        assertThat(memory)
                .extracting(SearchHit::score)
                .isNotEqualTo(index.search(corpus, query, List.of(), 12).stream()
                        .map(SearchHit::score)
                        .toList());
    }

    @Test
    void pastThePostingBudgetDocumentsAreDroppedAndReadAgainAlike() {
        KeywordIndex small = new KeywordIndex(database, 1);
        KeywordIndex roomy = new KeywordIndex(database, 1_000_000);
        String query = "the captain and the harbour bell";

        List<SearchHit> first = small.search(corpus, query, List.of(), 10);
        List<SearchHit> again = small.search(corpus, query, List.of(), 10);
        List<SearchHit> held = roomy.search(corpus, query, List.of(), 10);

        assertThat(small.heldPostings()).isZero();
        assertThat(roomy.heldPostings()).isPositive();
        assertSameRanking(first, held, query);
        assertSameRanking(again, held, query);
    }

    @Test
    void aConversationThatGrowsIsReadAgainOnEveryReplica() {
        UUID log = api.ingest(aConversation()
                .titled("Lamp room " + UUID.randomUUID())
                .session("8:00 am on 1 May, 2024", "Ash", "The lamp needs a new wick.", "Wren", "I trimmed it.")
                .build());
        // a second replica's index, next to this context's: both hold the conversation as it was
        KeywordIndex otherReplica = new KeywordIndex(database, 1_000_000);
        assertThat(index.search(List.of(log), "wick", List.of(), 5)).hasSize(1);
        assertThat(otherReplica.search(List.of(log), "wick", List.of(), 5)).hasSize(1);
        assertThat(otherReplica.search(List.of(log), "periscope", List.of(), 5)).isEmpty();

        Api.Response appended = api.post(
                "/v1/documents/" + log + "/sessions",
                Map.of(
                        "sessions",
                        List.of(Map.of(
                                "turns",
                                List.of(
                                        Map.of("speaker", "Ash", "text", "The periscope arrived from Glasgow."),
                                        Map.of("speaker", "Wren", "text", "A periscope? On a lighthouse?"))))));
        assertThat(appended.status()).as(appended.body()).isEqualTo(202);
        api.awaitDocument(log, "READY", Duration.ofMinutes(1));

        for (KeywordIndex replica : List.of(index, otherReplica)) {
            List<SearchHit> found = replica.search(List.of(log), "periscope", List.of(), 5);
            assertThat(found).isNotEmpty();
            assertThat(found.getFirst().text()).contains("periscope");
            assertSameRanking(found, sql(List.of(log), "periscope", List.of(), 5), "periscope");
        }
    }

    @Test
    void aDeletedDocumentIsLeftOutOfTheSearch() {
        UUID doomed = api.ingest(aText("The fog bell rang over the reef all night.")
                .titled("Doomed " + UUID.randomUUID())
                .build());
        assertThat(index.search(List.of(doomed), "fog bell", List.of(), 5)).hasSize(1);

        assertThat(api.delete("/v1/documents/" + doomed).status()).isIn(200, 202, 204);

        assertThat(index.search(List.of(doomed, corpus.getFirst()), "fog bell", List.of(), 5))
                .isNotEmpty()
                .allSatisfy(hit -> assertThat(hit.documentId()).isEqualTo(corpus.getFirst()));
    }
}
