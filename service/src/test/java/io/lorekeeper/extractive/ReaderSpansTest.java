package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.lorekeeper.memory.OnnxPairModel;
import io.lorekeeper.support.TinyOnnx;
import io.lorekeeper.text.Span;

/** How the reader's logits become an answer span: bounds, offsets, headings, the no-answer score. */
class ReaderSpansTest {

    @TempDir
    Path dir;

    private OnnxPairModel model;

    @AfterEach
    void close() {
        if (model != null) {
            model.close();
        }
    }

    private ReaderSpans.Choice read(
            Map<String, Float> start, Map<String, Float> end, int maxPieces, List<ReaderSpans.Passage> passages) {
        model = OnnxPairModel.inFolder(
                TinyOnnx.folder(dir.resolve("reader"), TinyOnnx.reader(start, end))
                        .toString(),
                "test.location",
                384);
        List<OnnxPairModel.Reading> readings = model.read(
                "What broke?", passages.stream().map(ReaderSpans.Passage::text).toList());
        return ReaderSpans.pick(passages, readings, maxPieces, p -> {
            List<Span> headings =
                    ReaderSpans.headings(passages.get(p).text(), passages.get(p).start());
            return at -> ReaderSpans.inside(headings, at);
        });
    }

    @Test
    void theBestSpanIsCutFromItsPassageAtAbsoluteOffsets() {
        String first = "The lamp was lit at dusk by the keeper.";
        String second = "In the night the sea wall broke in three places.";
        ReaderSpans.Choice choice = read(
                Map.of("wall", 6f, "lamp", 1f),
                Map.of("places", 6f, "dusk", 1f),
                30,
                List.of(new ReaderSpans.Passage(first, 40), new ReaderSpans.Passage(second, 500)));

        assertThat(choice.best().text()).isEqualTo("wall broke in three places");
        assertThat(choice.best().passage()).isEqualTo(1);
        int at = second.indexOf("wall");
        assertThat(choice.best().span())
                .isEqualTo(new Span(500 + at, 500 + at + "wall broke in three places".length()));
        assertThat(choice.best().score()).isEqualTo(12.0);
        assertThat(choice.bestPerPassage().getFirst().text()).isEqualTo("lamp was lit at dusk");
        // one span far above every other: most of the mass is on it
        assertThat(choice.probability()).isGreaterThan(0.9);
        assertThat(choice.margin()).isEqualTo(12.0); // no weight on [CLS]: the no-answer score is 0
    }

    @Test
    void aSpanIsNoLongerThanTheLimitAndEndsNoEarlierThanItStarts() {
        String passage = "places fell; the sea wall broke in three places.";
        ReaderSpans.Choice choice =
                read(Map.of("wall", 6f), Map.of("places", 6f), 3, List.of(new ReaderSpans.Passage(passage, 0)));

        // "wall broke in three places" is five pieces; the earlier "places" ends before "wall" starts
        assertThat(choice.best().text()).isNotEqualTo("wall broke in three places");
        assertThat(choice.best().score()).isLessThan(12.0);
        assertThat(choice.best().span().end() - choice.best().span().start())
                .isLessThanOrEqualTo("wall broke in".length());
    }

    @Test
    void aHeadingIsNeverTheSpanEvenWhenTheReaderPrefersIt() {
        String passage = "THE GANNET\n\nIn the night the sea wall broke in three places.";
        ReaderSpans.Choice choice = read(
                Map.of("gannet", 9f, "wall", 5f),
                Map.of("gannet", 9f, "places", 5f),
                30,
                List.of(new ReaderSpans.Passage(passage, 0)));

        assertThat(choice.best().text()).isEqualTo("wall broke in three places");
        assertThat(choice.headings()).extracting(ReaderSpans.Found::text).containsExactly("GANNET");
    }

    @Test
    void theNoAnswerScoreIsTheClsPiecesAndTheLeastOverThePassages() {
        ReaderSpans.Choice choice = read(
                Map.of("[CLS]", 6f, "wall", 2f),
                Map.of("[CLS]", 6f, "places", 2f),
                30,
                List.of(
                        new ReaderSpans.Passage("The sea wall broke in three places.", 0),
                        new ReaderSpans.Passage("The keeper slept.", 100)));

        assertThat(choice.noAnswers()).containsExactly(12.0, 12.0);
        assertThat(choice.noAnswer()).isEqualTo(12.0);
        assertThat(choice.best().text()).isEqualTo("wall broke in three places");
        assertThat(choice.margin()).isEqualTo(-8.0);
        assertThat(choice.noAnswerProbability()).isGreaterThan(choice.probability());
    }

    @Test
    void nothingReadIsNoSpan() {
        ReaderSpans.Choice choice = ReaderSpans.pick(List.of(), List.of(), 30, p -> at -> false);

        assertThat(choice.best()).isNull();
        assertThat(choice.probability()).isZero();
    }
}
