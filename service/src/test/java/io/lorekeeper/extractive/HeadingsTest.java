package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.lorekeeper.text.Span;

class HeadingsTest {

    /** The line, standing alone between blank lines as a book sets it. */
    private static boolean standingAlone(String line) {
        String text = "the end of a paragraph.\n\n" + line + "\n\nThe next paragraph begins here.";
        int start = text.indexOf(line);
        return Headings.isHeading(text, new Span(start, start + line.length()));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "CHAPTER XII.",
                "Chapter 3",
                "END OF THE SECOND STAGE OF PIP'S EXPECTATIONS.",
                "The Pequod Meets The Rachel.",
                "Loomings.",
                "Title: Great Expectations",
                "Release date: July 1, 1998 [eBook #1400]",
                "BOOK THE FIRST: The Sowing"
            })
    void chapterTitlesHeadingsAndTitlePageFieldsAreHeadings(String line) {
        assertThat(standingAlone(line)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "I never saw my father or my mother.",
                "“Keep still, you little devil, or I’ll cut your throat!”",
                "Who is it?",
                "He was a lawyer in London, and a very clever one, and he took me on.",
                "Yes."
            })
    void proseSpeechAndQuestionsAreNot(String line) {
        assertThat(standingAlone(line)).isFalse();
    }

    @org.junit.jupiter.api.Test
    void aTitleCasedPhraseInsideALineOfProseIsNot() {
        String text = "He said so. The Pequod Meets The Rachel. And then he left.";
        int start = text.indexOf("The Pequod");
        assertThat(Headings.isHeading(text, new Span(start, text.indexOf(" And"))))
                .isFalse();
    }

    @org.junit.jupiter.api.Test
    void anEncyclopediaTitleWithItsParagraphIsNot() {
        // HotpotQA's paragraphs: a title line, then its text on the next line, read as one sentence
        String text = "Arthur's Magazine\nArthur's Magazine (1844–1846) was an American literary periodical.\n\n";
        assertThat(Headings.isHeading(text, new Span(0, text.strip().length()))).isFalse();
    }
}
