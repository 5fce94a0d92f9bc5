package io.lorekeeper.document;

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

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;

/**
 * BM25 from impact-ordered postings ranks and scores exactly as scoring every chunk a query term
 * selects: on a corpus small enough that the selection holds every matching chunk, for random
 * queries of common and rare words, at depths that cut the postings of most terms.
 */
@IntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KeywordPostingsTest {

    /**
     * Ordered from most to least frequent, sampled with Zipf weights: a few in nearly every chunk,
     * a long tail of rare ones, as in prose. Made of syllables so that the English stemmer leaves
     * them apart; the most frequent is "river".
     */
    private static final List<String> WORDS = vocabulary(600);

    private static List<String> vocabulary(int size) {
        List<String> onsets = List.of("b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z");
        List<String> vowels = List.of("a", "e", "i", "o", "u");
        List<String> words = new ArrayList<>(List.of("river"));
        Random random = new Random(3);
        while (words.size() < size) {
            StringBuilder word = new StringBuilder();
            for (int s = 0; s < 3; s++) {
                word.append(onsets.get(random.nextInt(onsets.size())))
                        .append(vowels.get(random.nextInt(vowels.size())));
            }
            String made = word.append("n").toString();
            if (!words.contains(made)) {
                words.add(made);
            }
        }
        return List.copyOf(words);
    }

    private static final List<String> FILLER = List.of("the", "of", "and", "a", "to", "was", "in", "by");

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    List<UUID> corpus;

    @BeforeAll
    void ingest() {
        Random random = new Random(7);
        corpus = List.of(
                api.ingest(aText(prose(random, 2500))
                        .titled("Postings A " + UUID.randomUUID())
                        .build()),
                api.ingest(aText(prose(random, 1500))
                        .titled("Postings B " + UUID.randomUUID())
                        .build()),
                api.ingest(aText(prose(random, 900))
                        .titled("Postings C " + UUID.randomUUID())
                        .build()));
    }

    /** Sentences of Zipf-sampled words with filler between them; {@code words} words in all. */
    private static String prose(Random random, int words) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < words; i++) {
            text.append(i % 12 == 0 ? (i == 0 ? "" : ". ") : " ");
            text.append(random.nextInt(3) == 0 ? FILLER.get(random.nextInt(FILLER.size())) : zipf(random));
        }
        return text.append('.').toString();
    }

    private static String zipf(Random random) {
        double total = 0;
        for (int r = 1; r <= WORDS.size(); r++) {
            total += 1.0 / r;
        }
        double pick = random.nextDouble() * total;
        for (int r = 1; r <= WORDS.size(); r++) {
            pick -= 1.0 / r;
            if (pick <= 0) {
                return WORDS.get(r - 1);
            }
        }
        return WORDS.getLast();
    }

    private static List<String> queries() {
        Random random = new Random(11);
        List<String> queries = new ArrayList<>();
        for (int q = 0; q < 40; q++) {
            List<String> words = new ArrayList<>();
            int size = 1 + random.nextInt(7);
            for (int w = 0; w < size; w++) {
                words.add(random.nextBoolean() ? zipf(random) : WORDS.get(random.nextInt(WORDS.size())));
            }
            queries.add("Where is the " + String.join(" and the ", words) + "?");
        }
        return queries;
    }

    private KeywordSearch selection() {
        return new KeywordSearch(jdbc, 1_000_000);
    }

    private KeywordSearch postings(int depth) {
        return new KeywordSearch(jdbc, 1_000_000, true, new PostingsPolicy(depth, 0, 0));
    }

    @Test
    void theCorpusCutsThePostingsOfTheCommonWords() {
        long chunks = jdbc.sql("SELECT count(*) FROM chunk WHERE document_id = ANY(?)")
                .param(corpus.toArray(UUID[]::new))
                .query(Long.class)
                .single();
        long holdingRiver = jdbc.sql(
                        "SELECT count(*) FROM keyword_posting WHERE document_id = ANY(?) AND lexeme = 'river'")
                .param(corpus.toArray(UUID[]::new))
                .query(Long.class)
                .single();

        assertThat(chunks).isGreaterThan(20);
        // one posting per chunk holding the word, and more than a depth of 8 reads
        assertThat(holdingRiver).isGreaterThan(8).isLessThanOrEqualTo(chunks);
    }

    @Test
    void postingsRankAndScoreAsTheWholeSelection() {
        for (int k : List.of(1, 5, 10)) {
            for (int depth : List.of(2, 8, 64)) {
                for (String query : queries()) {
                    List<ChunkHit> exact = selection().search(corpus, query, k);
                    List<ChunkHit> fromPostings = postings(depth).search(corpus, query, k);

                    assertThat(keys(fromPostings))
                            .as("k=%d depth=%d %s", k, depth, query)
                            .isEqualTo(keys(exact));
                    for (int i = 0; i < exact.size(); i++) {
                        assertThat(fromPostings.get(i).score())
                                .isCloseTo(exact.get(i).score(), Offset.offset(1e-9));
                    }
                }
            }
        }
    }

    @Test
    void mostQueriesAreSettledByTheHeadsOfThePostings() {
        UUID tenant = jdbc.sql("SELECT tenant_id FROM document WHERE id = ?")
                .param(corpus.getFirst())
                .query(UUID.class)
                .single();
        UUID[] ids = corpus.toArray(UUID[]::new);
        long chunks = jdbc.sql("SELECT sum(chunk_count) FROM document WHERE id = ANY(?)")
                .param(ids)
                .query(Long.class)
                .single();
        int settled = 0;
        int cut = 0;
        for (String query : queries()) {
            List<KeywordTerm> terms = selection().terms(ids, query, chunks);
            PostingHeads heads = PostingHeads.read(jdbc, tenant, ids, terms, 8, averageLength(ids));
            List<ChunkHit> exact = selection().search(corpus, query, 5);
            if (heads.bound() > 0) {
                cut++;
            }
            if (heads.candidates().size() < chunks && heads.settle(exact, 5)) {
                settled++;
                // what settles is the exact ranking: every hit is among the candidates read
                assertThat(heads.candidates()).containsAll(chunkIds(exact));
            }
        }
        assertThat(cut).as("queries whose postings were cut").isGreaterThan(20);
        assertThat(settled)
                .as("queries settled without reading every posting, of %d cut", cut)
                .isGreaterThan(cut / 2);
    }

    @Test
    void theBoundHoldsForEveryChunkLeftUnread() {
        UUID tenant = jdbc.sql("SELECT tenant_id FROM document WHERE id = ?")
                .param(corpus.getFirst())
                .query(UUID.class)
                .single();
        UUID[] ids = corpus.toArray(UUID[]::new);
        long chunks = jdbc.sql("SELECT sum(chunk_count) FROM document WHERE id = ANY(?)")
                .param(ids)
                .query(Long.class)
                .single();
        for (String query : queries()) {
            List<KeywordTerm> terms = selection().terms(ids, query, chunks);
            PostingHeads heads = PostingHeads.read(jdbc, tenant, ids, terms, 4, averageLength(ids));
            for (ChunkHit hit : selection().search(corpus, query, 1000)) {
                if (!heads.candidates().contains(chunkId(hit))) {
                    assertThat(hit.score()).as(query).isLessThanOrEqualTo(heads.bound());
                }
            }
        }
    }

    @Test
    void aConversationThatGrowsAndADocumentDeletedKeepThePostingsInStep() {
        var conversation = aConversation().titled("Postings talk " + UUID.randomUUID());
        conversation.session(null, "Ana", "The falcon sat on the lagoon wall.");
        UUID talk = api.ingest(conversation.build());
        assertThat(postingsOf(talk, "falcon")).isEqualTo(1);

        Api.Response appended = api.post(
                "/v1/documents/" + talk + "/sessions",
                Map.of(
                        "sessions",
                        List.of(Map.of("turns", List.of(Map.of("speaker", "Ben", "text", "A falcon again!"))))));
        assertThat(appended.status()).as(appended.body()).isEqualTo(202);
        api.awaitDocument(talk, "READY", Duration.ofMinutes(2));
        assertThat(postingsOf(talk, "falcon"))
                .isEqualTo(chunksHolding(talk, "falcon"))
                .isGreaterThan(1);

        assertThat(api.delete("/v1/documents/" + talk).status()).isIn(200, 202, 204);
        assertThat(jdbc.sql("SELECT count(*) FROM keyword_posting WHERE document_id = ?")
                        .param(talk)
                        .query(Long.class)
                        .single())
                .isZero();
    }

    private long postingsOf(UUID document, String lexeme) {
        return jdbc.sql("SELECT count(*) FROM keyword_posting WHERE document_id = ? AND lexeme = ?")
                .params(document, lexeme)
                .query(Long.class)
                .single();
    }

    private long chunksHolding(UUID document, String lexeme) {
        return jdbc.sql("SELECT count(*) FROM chunk WHERE document_id = ? AND tsv @@ CAST(? AS tsquery)")
                .params(document, lexeme)
                .query(Long.class)
                .single();
    }

    private double averageLength(UUID[] ids) {
        return jdbc.sql("SELECT sum(term_total)::float8 / sum(chunk_count) FROM document WHERE id = ANY(?)")
                .param(ids)
                .query(Double.class)
                .single();
    }

    private long chunkId(ChunkHit hit) {
        return jdbc.sql("SELECT id FROM chunk WHERE document_id = ? AND ordinal = ?")
                .params(hit.documentId(), hit.ordinal())
                .query(Long.class)
                .single();
    }

    private List<Long> chunkIds(List<ChunkHit> hits) {
        return hits.stream().map(this::chunkId).toList();
    }

    private static List<String> keys(List<ChunkHit> hits) {
        return hits.stream().map(h -> h.documentId() + "#" + h.ordinal()).toList();
    }
}
