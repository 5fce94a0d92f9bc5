package io.lorekeeper.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntUnaryOperator;

import org.junit.jupiter.api.Test;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.DocumentStatus;
import io.lorekeeper.document.Documents;
import io.lorekeeper.llm.ContextLimit;
import io.lorekeeper.platform.ApiProblem;

/**
 * The chunk length of COSMIR and Chain of Agents at its boundaries (a requested length that just
 * fits or just does not, the smallest chunk, the paper's default), and the chunks numbered across
 * documents, without a model or a database. With no memory carried, the largest chunk that fits is
 * the prompt tokens less {@link ChunkedReading#PROMPT_ALLOWANCE}.
 */
class ChunkedReadingBoundariesTest {

    private static final IntUnaryOperator NOTHING_CARRIED = chunk -> 0;

    /** A model whose largest fitting chunk is {@code largest} tokens. */
    private static ContextLimit fitting(int largest) {
        return new ContextLimit("p", largest + ChunkedReading.PROMPT_ALLOWANCE + 1_000, 1_000);
    }

    private static ChunkedReading.ChunkSize size(Map<String, Object> options, int largest) {
        return ChunkedReading.chunkSize("cosmir", new QuestionOptions(options), NOTHING_CARRIED, fitting(largest));
    }

    @Test
    void aRequestedLengthThatExactlyFitsIsTakenAndOneMoreIsRefused() {
        assertThat(size(Map.of("chunkTokens", 5_000), 5_000)).isEqualTo(new ChunkedReading.ChunkSize(5_000, false));
        assertThatThrownBy(() -> size(Map.of("chunkTokens", 5_001), 5_000))
                .isInstanceOfSatisfying(
                        ApiProblem.class, p -> assertThat(p.field()).isEqualTo("options.chunkTokens"))
                .hasMessageContaining("sends up to 7001 prompt tokens")
                .hasMessageContaining("use chunkTokens of at most 5000, ");
    }

    @Test
    void theRefusalSuggestsALengthOnlyWhenTheSmallestChunkFits() {
        assertThatThrownBy(() -> size(Map.of("chunkTokens", 33), 32))
                .hasMessageContaining("use chunkTokens of at most 32, ");
        assertThatThrownBy(() -> size(Map.of("chunkTokens", 33), 31))
                .hasMessageNotContaining("use chunkTokens")
                .hasMessageContaining("or configure a larger context-window");
    }

    @Test
    void withoutARequestTheSmallestChunkIsTheLeastAndThePapersLengthTheMost() {
        assertThat(size(Map.of(), 32)).isEqualTo(new ChunkedReading.ChunkSize(32, true));
        assertThatThrownBy(() -> size(Map.of(), 31))
                .isInstanceOfSatisfying(
                        ApiProblem.class, p -> assertThat(p.field()).isEqualTo("options.chunkTokens"))
                .hasMessageContaining("cannot fit even a 32-token chunk");
        assertThat(size(Map.of(), 63_999)).isEqualTo(new ChunkedReading.ChunkSize(63_999, true));
        assertThat(size(Map.of(), 64_000)).isEqualTo(new ChunkedReading.ChunkSize(64_000, false));
        assertThat(size(Map.of(), 500_000)).isEqualTo(new ChunkedReading.ChunkSize(64_000, false));
    }

    private static DocumentInfo document(UUID id, int tokens) {
        return new DocumentInfo(
                id, UUID.randomUUID(), "t", DocumentKind.TEXT, "default", DocumentStatus.READY, 0, tokens, 0);
    }

    @Test
    void theExpectedChunksRoundUpPerDocumentWithAtLeastOneEach() {
        UUID id = UUID.randomUUID();
        assertThat(ChunkedReading.expectedChunks(List.of(document(id, 200)), 100))
                .isEqualTo(2);
        assertThat(ChunkedReading.expectedChunks(List.of(document(id, 201)), 100))
                .isEqualTo(3);
        assertThat(ChunkedReading.expectedChunks(List.of(document(id, 0), document(id, 99)), 100))
                .isEqualTo(2);
        assertThat(ChunkedReading.expectedChunks(List.of(), 100)).isZero();
    }

    @Test
    void chunksAreNumberedAcrossDocumentsAndKnowWhatWasReadBefore() {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        String long_ = "Pip walked on the marshes at dusk. ".repeat(12).strip();
        String short_ = "Joe was a blacksmith.";
        Documents texts = mock(Documents.class);
        when(texts.text(first)).thenReturn(long_);
        when(texts.text(second)).thenReturn(short_);

        List<ChunkedReading.Chunk> chunks =
                ChunkedReading.of(List.of(document(first, 100), document(second, 5)), texts, 40);

        assertThat(chunks.size()).isGreaterThan(2);
        for (int i = 0; i < chunks.size(); i++) {
            ChunkedReading.Chunk chunk = chunks.get(i);
            assertThat(chunk.number()).isEqualTo(i + 1);
            assertThat(chunk.total()).isEqualTo(chunks.size());
            assertThat(chunk.text()).isEqualTo(chunk.span().of(chunk.documentText()));
            assertThat(chunk.before())
                    .isEqualTo(chunk.documentText().substring(0, chunk.span().start()));
        }
        ChunkedReading.Chunk firstChunk = chunks.getFirst();
        assertThat(firstChunk.documentId()).isEqualTo(first);
        assertThat(firstChunk.documentNumber()).isEqualTo(1);
        assertThat(firstChunk.before()).isEmpty();
        ChunkedReading.Chunk secondOfFirst = chunks.get(1);
        assertThat(secondOfFirst.before()).isNotEmpty();
        assertThat(long_).startsWith(secondOfFirst.before());
        ChunkedReading.Chunk last = chunks.getLast();
        assertThat(last.documentId()).isEqualTo(second);
        assertThat(last.documentNumber()).isEqualTo(2);
        assertThat(last.text()).isEqualTo(short_);
        assertThat(last.heading(2)).isEqualTo("Chunk " + chunks.size() + " of " + chunks.size() + " (document 2 of 2)");
        assertThat(firstChunk.heading(1)).isEqualTo("Chunk 1 of " + chunks.size());
    }
}
