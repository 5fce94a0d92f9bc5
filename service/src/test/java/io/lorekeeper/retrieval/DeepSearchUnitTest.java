package io.lorekeeper.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.document.search.ChunkIndex;
import io.lorekeeper.document.search.FeedbackLexeme;
import io.lorekeeper.document.search.KeywordTerm;
import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.memory.Embeddings;

/**
 * The deep mode's fusion without a database: the chunk index and the embeddings are stand-ins, so
 * the weights, the feedback chunks, the feedback terms and the depth are what is checked.
 */
class DeepSearchUnitTest {

    private static final UUID DOC = UUID.fromString("00000000-0000-0000-0000-00000000000d");
    private static final List<UUID> DOCS = List.of(DOC);
    private static final String QUERY = "What does the brother do?";

    private final ChunkIndex chunks = mock(ChunkIndex.class);
    private final Embeddings embeddings = mock(Embeddings.class);
    private final DeepSearch deep = new DeepSearch(chunks, embeddings);

    private static SearchHit chunk(int ordinal) {
        return new SearchHit(
                DOC, ordinal, 0, ordinal * 10, ordinal * 10 + 9, "chunk " + ordinal, List.of(), List.of(), 0.5);
    }

    private void firstPass(List<SearchHit> byVector, List<SearchHit> byKeyword) {
        when(embeddings.query(QUERY)).thenReturn(new float[] {1, 0});
        when(chunks.nearest(eq(DOCS), eq(new float[] {1, 0}), anyInt())).thenReturn(byVector);
        when(chunks.keyword(eq(DOCS), eq(QUERY), anyInt())).thenReturn(byKeyword);
        when(chunks.vectorsOf(anyList())).thenReturn(List.of(new float[] {0, 1}));
    }

    @Test
    void eachSecondPassRankingCountsHalfAsMuchAsAFirstPassRanking() {
        assertThat(DeepSearch.Settings.DEFAULT.secondPassWeight()).isEqualTo(0.5);
        firstPass(List.of(chunk(1), chunk(2)), List.of(chunk(1), chunk(2)));
        when(chunks.feedbackLexemes(eq(DOCS), anyList(), eq(QUERY)))
                .thenReturn(List.of(new FeedbackLexeme("tobias", 2, 3, 2, 4.0, 0.1)));
        // the moved vector query (any vector other than the query's own) and the expanded BM25 search find chunk 3
        // first
        when(chunks.nearest(eq(DOCS), any(float[].class), anyInt())).thenAnswer(call -> {
            float[] v = call.getArgument(1);
            return v[1] == 0 ? List.of(chunk(1), chunk(2)) : List.of(chunk(3));
        });
        when(chunks.keyword(eq(DOCS), eq(QUERY), anyList(), anyInt())).thenReturn(List.of(chunk(3)));

        List<SearchHit> hits = deep.search(DOCS, QUERY, 5);

        verify(chunks)
                .feedbackLexemes(DOCS, List.of(new SearchHit.ChunkKey(DOC, 1), new SearchHit.ChunkKey(DOC, 2)), QUERY);
        verify(chunks).vectorsOf(List.of(new SearchHit.ChunkKey(DOC, 1), new SearchHit.ChunkKey(DOC, 2)));
        assertThat(hits).extracting(SearchHit::chunkOrdinal).containsExactly(1, 2, 3);
        assertThat(hits.get(0).score()).isCloseTo(2.0 / 61, within(1e-12));
        assertThat(hits.get(1).score()).isCloseTo(2.0 / 62, within(1e-12));
        assertThat(hits.get(2).score())
                .as("found first by both second-pass rankings, each weighing 0.5")
                .isCloseTo(2 * 0.5 / 61, within(1e-12));
    }

    @Test
    void aChunkOnlyTheSecondPassFindsScoresHalfOfWhatTheFirstPassGives() {
        firstPass(List.of(chunk(1)), List.of(chunk(1)));
        when(chunks.feedbackLexemes(eq(DOCS), anyList(), eq(QUERY)))
                .thenReturn(List.of(new FeedbackLexeme("tobias", 1, 1, 1, 4.0, 0.1)));
        when(chunks.nearest(eq(DOCS), any(float[].class), anyInt())).thenAnswer(call -> {
            float[] v = call.getArgument(1);
            return v[1] == 0 ? List.of(chunk(1)) : List.of(chunk(3), chunk(1));
        });
        when(chunks.keyword(eq(DOCS), eq(QUERY), anyList(), anyInt())).thenReturn(List.of(chunk(3), chunk(1)));

        List<SearchHit> hits = deep.search(DOCS, QUERY, 5);
        assertThat(hits).extracting(SearchHit::chunkOrdinal).containsExactly(1, 3);
        assertThat(hits.get(0).score()).isCloseTo(2.0 / 61 + 2 * 0.5 / 62, within(1e-12));
        assertThat(hits.get(1).score()).isCloseTo(2 * 0.5 / 61, within(1e-12));
    }

    @Test
    void feedbackTermsAreTheRarestBridgesTooRareSharesLeftOutAndCappedAtTheExpansionCount() {
        when(chunks.feedbackLexemes(eq(DOCS), anyList(), eq(QUERY)))
                .thenReturn(List.of(
                        new FeedbackLexeme("caroline", 3, 9, 40, 0.5, 0.9),
                        new FeedbackLexeme("tobias", 2, 3, 2, 4.0, 0.05),
                        new FeedbackLexeme("rye", 1, 1, 1, 5.0, 0.2),
                        new FeedbackLexeme("harbour", 1, 1, 1, 5.0, 0.21),
                        new FeedbackLexeme("bakes", 1, 1, 1, 5.0, 0.01)));
        DeepSearch.Settings two = new DeepSearch.Settings(3, 2, 0.3, 0.2, 0.5, 0.2);

        List<KeywordTerm> terms = deep.feedbackTerms(DOCS, List.of(), QUERY, two);

        assertThat(terms)
                .extracting(KeywordTerm::lexeme)
                .as("chunks x idf: tobias 8, then bakes and rye 5 (by name); harbour and caroline too common")
                .containsExactly("tobias", "bakes");
        assertThat(terms).allSatisfy(t -> assertThat(t.weight()).isEqualTo(0.3));
        assertThat(deep.feedbackTerms(DOCS, List.of(), QUERY, new DeepSearch.Settings(3, 9, 0.3, 0.2, 0.5, 0.2)))
                .extracting(KeywordTerm::lexeme)
                .as("a share of exactly maxShare is kept")
                .containsExactly("tobias", "bakes", "rye");
    }

    @Test
    void aTermInMoreFeedbackChunksWinsOnlyByItsProductWithRarity() {
        when(chunks.feedbackLexemes(eq(DOCS), anyList(), eq(QUERY)))
                .thenReturn(List.of(
                        new FeedbackLexeme("everywhere", 3, 3, 9, 1.0, 0.1),
                        new FeedbackLexeme("rare", 1, 1, 1, 4.0, 0.1)));
        assertThat(deep.feedbackTerms(DOCS, List.of(), QUERY, DeepSearch.Settings.DEFAULT))
                .extracting(KeywordTerm::lexeme)
                .as("1 chunk x idf 4 beats 3 chunks x idf 1")
                .containsExactly("rare", "everywhere");
    }

    @Test
    void rocchioAveragesTheNormalisedFeedbackVectors() {
        float[] moved = DeepSearch.rocchio(new float[] {2, 0}, List.of(new float[] {0, 2}, new float[] {0, 4}), 0.5);
        // (1, 0) + 0.5 x mean((0, 1), (0, 1)) = (1, 0.5), normalised
        double norm = Math.sqrt(1.25);
        assertThat(moved[0]).isCloseTo((float) (1 / norm), within(1e-6f));
        assertThat(moved[1]).isCloseTo((float) (0.5 / norm), within(1e-6f));
        assertThat(DeepSearch.rocchio(new float[] {0, 0}, List.of(), 0.2))
                .as("a zero query stays zero rather than becoming NaN")
                .containsExactly(0f, 0f);
    }

    @Test
    void nothingFoundFirstEndsTheSearchAndNoRocchioMeansNoMovedQuery() {
        firstPass(List.of(), List.of());
        assertThat(deep.search(DOCS, QUERY, 5)).isEmpty();
        verify(chunks, never()).feedbackLexemes(any(), any(), anyString());

        firstPass(List.of(chunk(1)), List.of(chunk(2)));
        when(chunks.feedbackLexemes(eq(DOCS), anyList(), eq(QUERY))).thenReturn(List.of());
        List<SearchHit> hits = deep.search(DOCS, QUERY, 1, new DeepSearch.Settings(1, 15, 0.3, 0.0, 0.5, 0.2));
        assertThat(hits).extracting(SearchHit::chunkOrdinal).containsExactly(1);
        verify(chunks, never()).vectorsOf(anyList());
        verify(chunks, never()).keyword(eq(DOCS), eq(QUERY), anyList(), anyInt());
    }

    @Test
    void bothRankingsAreSearchedAtLeastThirtyDeepOrThreeTimesK() {
        firstPass(List.of(chunk(1)), List.of(chunk(1)));
        when(chunks.feedbackLexemes(eq(DOCS), anyList(), eq(QUERY))).thenReturn(List.of());
        deep.search(DOCS, QUERY, 5);
        verify(chunks).keyword(DOCS, QUERY, 30);
        deep.search(DOCS, QUERY, 11);
        verify(chunks).keyword(DOCS, QUERY, 33);
    }

    @Test
    void theQuestionItEmbedsLeavesOutTheSpeakerItNamesWhichTheKeywordSearchStillReads() {
        String named = "What does Melanie do to destress?";
        SearchHit caroline =
                new SearchHit(DOC, 1, 0, 0, 9, "Melanie, that's great!", List.of("D1:1"), List.of("Caroline"), 1);
        SearchHit melanie = new SearchHit(DOC, 2, 0, 10, 19, "I run.", List.of("D1:2"), List.of("Melanie"), 1);
        when(chunks.keyword(eq(DOCS), eq(named), anyInt())).thenReturn(List.of(caroline, melanie));
        when(embeddings.query("What does they do to destress?")).thenReturn(new float[] {1, 0});
        when(chunks.nearest(eq(DOCS), eq(new float[] {1, 0}), anyInt())).thenReturn(List.of(melanie));
        when(chunks.feedbackLexemes(eq(DOCS), anyList(), eq(named))).thenReturn(List.of());
        when(chunks.vectorsOf(anyList())).thenReturn(List.of(new float[] {0, 1}));

        List<SearchHit> hits = deep.search(DOCS, named, 2);

        verify(embeddings, never()).query(named);
        assertThat(hits).extracting(SearchHit::chunkOrdinal).containsExactly(2, 1);
    }
}
