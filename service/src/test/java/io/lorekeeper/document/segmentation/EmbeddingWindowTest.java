package io.lorekeeper.document.segmentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IntSummaryStatistics;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.langchain4j.model.embedding.onnx.HuggingFaceTokenCountEstimator;
import io.lorekeeper.document.intake.CanonicalText;
import io.lorekeeper.support.SharedData;
import io.lorekeeper.text.TextNormalizer;
import io.lorekeeper.text.TokenCounter;

/**
 * Segments real novels with the production settings and checks every chunk against the embedding
 * model's own WordPiece tokenizer: bge-small-en-v1.5 sees at most 512 positions, two of them taken by
 * [CLS] and [SEP], so a chunk must stay within 510 word pieces or its tail is silently truncated.
 */
class EmbeddingWindowTest {

    private static final int EMBEDDING_WINDOW = 510;
    private static final String TOKENIZER_RESOURCE = "/bge-small-en-v1.5-q-tokenizer.json";

    @TempDir
    static Path tempDir;

    private static HuggingFaceTokenCountEstimator wordPieces;

    @BeforeAll
    static void loadTokenizer() throws IOException {
        Path tokenizer = tempDir.resolve("bge-tokenizer.json");
        try (InputStream in = EmbeddingWindowTest.class.getResourceAsStream(TOKENIZER_RESOURCE)) {
            assertThat(in).as("%s on the test classpath", TOKENIZER_RESOURCE).isNotNull();
            Files.copy(in, tokenizer);
        }
        wordPieces = new HuggingFaceTokenCountEstimator(tokenizer);
    }

    /**
     * The estimator caps its count at the tokenizer's model max length (512), but that is still above the
     * 510-piece window, so an oversized chunk cannot hide behind the cap.
     */
    @Test
    void tokenizerReportsTextsLongerThanTheWindowAsLongerThanTheWindow() {
        String longText = "the old forge glowed while Joe hammered slowly and sang ".repeat(100);

        assertThat(wordPieces.estimateTokenCountInText("Pip's benefactor")).isEqualTo(4);
        assertThat(wordPieces.estimateTokenCountInText(longText)).isGreaterThan(EMBEDDING_WINDOW);
    }

    private static String novel(String file) throws IOException {
        return TextNormalizer.normalize(Files.readString(SharedData.require("novels/" + file)));
    }

    private static long nonWhitespace(String s) {
        return s.codePoints().filter(c -> !Character.isWhitespace(c)).count();
    }

    @ParameterizedTest
    @ValueSource(strings = {"great_expectations_pg1400.txt", "pride_and_prejudice_pg1342.txt"})
    void everyChunkOfANovelFitsTheEmbeddingWindow(String file) throws IOException {
        String text = novel(file);

        Segmentation segmentation = Segmenter.standard().segment(CanonicalText.plain(text));

        IntSummaryStatistics pieces = new IntSummaryStatistics();
        IntSummaryStatistics cl100k = new IntSummaryStatistics();
        long covered = 0;
        for (Segmentation.Chunk chunk : segmentation.chunks()) {
            assertThat(chunk.text()).isEqualTo(chunk.span().of(text));
            int count = wordPieces.estimateTokenCountInText(chunk.text());
            assertThat(count)
                    .as("word pieces of chunk %d of %s", chunk.ordinal(), file)
                    .isLessThanOrEqualTo(EMBEDDING_WINDOW);
            pieces.accept(count);
            cl100k.accept(TokenCounter.count(chunk.text()));
            covered += nonWhitespace(chunk.text());
        }
        long total = nonWhitespace(text);
        double coverage = (double) covered / total;
        System.out.printf(
                "%s: chunks=%d, pages=%d, wordpieces max=%d avg=%.1f, cl100k max=%d avg=%.1f min=%d, coverage=%.5f%n",
                file,
                segmentation.chunks().size(),
                segmentation.pages().size(),
                pieces.getMax(),
                pieces.getAverage(),
                cl100k.getMax(),
                cl100k.getAverage(),
                cl100k.getMin(),
                coverage);

        assertThat(segmentation.chunks()).hasSizeGreaterThan(100);
        assertThat(cl100k.getAverage()).as("average cl100k tokens per chunk").isBetween(150.0, 300.0);
        assertThat(coverage)
                .as("share of non-whitespace characters inside chunks")
                .isGreaterThanOrEqualTo(0.99);
    }
}
