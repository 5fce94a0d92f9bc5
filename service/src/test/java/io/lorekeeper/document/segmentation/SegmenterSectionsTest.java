package io.lorekeeper.document.segmentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.lorekeeper.document.intake.CanonicalText;

class SegmenterSectionsTest {

    private final Segmenter segmenter = new Segmenter(40, 60, 32, 120);

    @Test
    void noChunkCrossesAPageAndPagesBreakAtThemWhenTheNextWouldNotFit() {
        StringBuilder text = new StringBuilder();
        List<Integer> starts = new ArrayList<>();
        for (int p = 0; p < 6; p++) {
            if (p > 0) {
                text.append("\n\n");
            }
            starts.add(text.length());
            for (int s = 0; s < 6; s++) {
                text.append("Page ")
                        .append(p)
                        .append(" says sentence ")
                        .append(s)
                        .append(" about the lamp. ");
            }
        }
        String canonical = text.toString().strip();

        Segmentation segmentation = segmenter.segment(CanonicalText.plain(canonical), starts);

        for (Segmentation.Chunk chunk : segmentation.chunks()) {
            for (int start : starts) {
                assertThat(start <= chunk.span().start()
                                || start >= chunk.span().end())
                        .as("chunk %s crosses %d", chunk.span(), start)
                        .isTrue();
            }
        }
        for (Segmentation.Page page : segmentation.pages()) {
            assertThat(page.tokens()).isLessThanOrEqualTo(120);
            assertThat(starts).contains(page.span().start());
        }
        assertThat(segmentation.pages().size()).isGreaterThan(1);
    }

    @Test
    void withoutBoundariesItSegmentsAsBefore() {
        String canonical = "The keeper lit the lamp. ".repeat(80).strip();

        assertThat(segmenter.segment(CanonicalText.plain(canonical), List.of()))
                .isEqualTo(segmenter.segment(CanonicalText.plain(canonical)));
    }
}
