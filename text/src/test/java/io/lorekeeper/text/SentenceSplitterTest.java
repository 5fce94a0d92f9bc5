package io.lorekeeper.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SentenceSplitterTest {

    /** Splits and returns the sentence texts, checking the invariants every split must satisfy. */
    private static List<String> sentences(String text) {
        return sentences(text, 0, text.length());
    }

    private static List<String> sentences(String text, int from, int to) {
        List<Span> spans = SentenceSplitter.split(text, from, to);
        assertSpanInvariants(text, from, to, spans);
        return spans.stream().map(s -> s.of(text)).toList();
    }

    private static void assertSpanInvariants(String text, int from, int to, List<Span> spans) {
        int previousEnd = from;
        for (Span span : spans) {
            String sentence = text.substring(span.start(), span.end());
            assertThat(span.of(text)).isEqualTo(sentence);
            assertThat(sentence)
                    .as("sentence %s is non-empty and trimmed", span)
                    .isNotEmpty()
                    .isEqualTo(sentence.strip());
            assertThat(span.start())
                    .as("span %s starts inside range and after the previous one", span)
                    .isGreaterThanOrEqualTo(previousEnd);
            assertThat(span.end()).as("span %s ends inside range", span).isLessThanOrEqualTo(to);
            previousEnd = span.end();
        }
    }

    @Test
    void honorificDoesNotEndSentence() {
        String text = "Mr. Jaggers said so. He left.";

        List<Span> spans = SentenceSplitter.split(text);

        assertThat(spans).containsExactly(new Span(0, 20), new Span(21, 29));
        assertThat(sentences(text)).containsExactly("Mr. Jaggers said so.", "He left.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Mrs.", "Dr.", "St.", "Capt.", "Messrs.", "Prof."})
    void otherAbbreviationsDoNotEndSentence(String abbreviation) {
        String text = "I saw " + abbreviation + " Pocket today. He waved.";

        assertThat(sentences(text)).containsExactly("I saw " + abbreviation + " Pocket today.", "He waved.");
    }

    @Test
    void latinAbbreviationsWithInnerDotsDoNotEndSentence() {
        assertThat(sentences("Bring fruit, e.g. Apples and pears. Then go."))
                .containsExactly("Bring fruit, e.g. Apples and pears.", "Then go.");
    }

    @Test
    void initialsDoNotEndSentence() {
        assertThat(sentences("J. R. Smith came. Then he went home."))
                .containsExactly("J. R. Smith came.", "Then he went home.");
    }

    @Test
    void exclamationInQuotedSpeechFollowedByLowerCaseKeepsSentenceGoing() {
        assertThat(sentences("“Hold your noise!” cried a voice.")).containsExactly("“Hold your noise!” cried a voice.");
    }

    @Test
    void questionInQuotedSpeechFollowedByLowerCaseKeepsSentenceGoing() {
        assertThat(sentences("\"Who is it?\" asked Joe. Nobody answered."))
                .containsExactly("\"Who is it?\" asked Joe.", "Nobody answered.");
    }

    @Test
    void exclamationInQuotedSpeechFollowedByCapitalEndsSentenceWithTheQuote() {
        assertThat(sentences("“Hold your noise!” Pip cried.")).containsExactly("“Hold your noise!”", "Pip cried.");
    }

    @Test
    void blankLineEndsSentenceWithoutPunctuation() {
        String text = "CHAPTER I\n\nMy father's family name being Pirrip.";

        assertThat(SentenceSplitter.split(text)).containsExactly(new Span(0, 9), new Span(11, 48));
        assertThat(sentences(text)).containsExactly("CHAPTER I", "My father's family name being Pirrip.");
    }

    @Test
    void blankLineContainingSpacesStillEndsSentence() {
        assertThat(sentences("A heading\n   \t\nThe body starts")).containsExactly("A heading", "The body starts");
    }

    @Test
    void singleHardWrapNewlineDoesNotEndSentence() {
        String text = "My father's family name being\nPirrip, my Christian name Philip. Next one.";

        assertThat(sentences(text))
                .containsExactly("My father's family name being\nPirrip, my Christian name Philip.", "Next one.");
    }

    @Test
    void spansAreTrimmedOfSurroundingWhitespace() {
        String text = "  \n Hello there.   \n General Kenobi!  \n";

        List<Span> spans = SentenceSplitter.split(text);

        assertThat(spans).containsExactly(new Span(4, 16), new Span(21, 36));
        assertThat(sentences(text)).containsExactly("Hello there.", "General Kenobi!");
    }

    @Test
    void blankOrEmptyTextHasNoSentences() {
        assertThat(SentenceSplitter.split("")).isEmpty();
        assertThat(SentenceSplitter.split(" \n\n \t ")).isEmpty();
    }

    @Test
    void textWithoutTerminatorIsOneSentence() {
        assertThat(sentences("no punctuation at all")).containsExactly("no punctuation at all");
    }

    @Test
    void decimalPointDoesNotEndSentence() {
        assertThat(sentences("It cost 2.50 pounds. Cheap.")).containsExactly("It cost 2.50 pounds.", "Cheap.");
    }

    @Test
    void rangeSplitOnlyReturnsSpansInsideRange() {
        String text = "One. Two three. Four five six. Seven.";
        int from = text.indexOf("Two");
        int to = text.indexOf(" Seven");

        List<Span> spans = SentenceSplitter.split(text, from, to);

        assertThat(spans).containsExactly(new Span(5, 15), new Span(16, 30));
        assertThat(sentences(text, from, to)).containsExactly("Two three.", "Four five six.");
    }

    @Test
    void rangeCuttingThroughSentencesReturnsTheFragmentsInsideIt() {
        String text = "One two three. Four five six. Seven.";
        int from = text.indexOf("two");
        int to = text.indexOf("five") + 2;

        assertThat(sentences(text, from, to)).containsExactly("two three.", "Four fi");
    }

    @Test
    void rangeSplitIgnoresBlankLinesAndTerminatorsOutsideRange() {
        String text = "Before.\n\nInside one. Inside two\n\nAfter.";
        int from = text.indexOf("Inside");
        int to = text.indexOf("\n\nAfter");

        assertThat(sentences(text, from, to)).containsExactly("Inside one.", "Inside two");
    }

    @Test
    void asciiEllipsisIsIncludedInTheSentence() {
        assertThat(sentences("Well... I suppose so. Fine.")).containsExactly("Well...", "I suppose so.", "Fine.");
    }

    @Test
    void unicodeEllipsisIsIncludedInTheSentence() {
        assertThat(sentences("Wait… Then what? Nothing.")).containsExactly("Wait…", "Then what?", "Nothing.");
    }

    @Test
    void ellipsisFollowedByLowerCaseContinuesTheSentence() {
        assertThat(sentences("Hmm… perhaps not. Go.")).containsExactly("Hmm… perhaps not.", "Go.");
    }

    @Test
    void closingQuotesAndBracketsAreIncludedInTheSentence() {
        assertThat(sentences("“I will.” Then he did. (He nodded.) ‘Yes?’ \"Done!\" End."))
                .containsExactly("“I will.”", "Then he did.", "(He nodded.)", "‘Yes?’", "\"Done!\"", "End.");
    }

    @Test
    void sentenceAtEndOfTextIncludesTrailingQuote() {
        String text = "He said, “Come here.”";

        assertThat(SentenceSplitter.split(text)).containsExactly(new Span(0, text.length()));
    }

    @Test
    void sentenceEndingInTheWordNoEnds() {
        assertThat(sentences("“Will you come?” “No.” He turned away."))
                .containsExactly("“Will you come?”", "“No.”", "He turned away.");
    }

    @Test
    void sentenceEndingInPronounIEnds() {
        assertThat(sentences("“Yes,” said I. “Good.”")).containsExactly("“Yes,” said I.", "“Good.”");
    }
}
