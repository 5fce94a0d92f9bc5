package io.lorekeeper.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.document.Documents;
import io.lorekeeper.text.Span;

/**
 * Quote resolution and citation verification without a database: where a model's quote is found
 * (and where it is not), the fuzzy tolerance of a tenth of the quote's length and its length
 * bounds, and the gate a citation passes.
 */
class QuoteResolutionTest {

    private static final String PASSAGE = "It was Mr. Jaggers, a lawyer of Little Britain, who told Pip.\n"
            + "The convict Magwitch had prospered greatly in New South Wales, far away from the marshes.";
    private static final String SEGMENT = "Magwitch had prospered greatly in New South Wales";

    // ---------------------------------------------------------------- SpanLocator

    @Test
    void spanLocatorFindsExactQuotesAtAbsoluteOffsets() {
        int at = PASSAGE.indexOf("told Pip");
        assertThat(SpanLocator.locate("  told Pip ", PASSAGE, 100)).contains(new Span(100 + at, 100 + at + 8));
    }

    @Test
    void spanLocatorLetsAnyWhitespaceRunMatchAnyOther() {
        String passage = "who told Pip.\n  The convict\tMagwitch";
        Span span = SpanLocator.locate("Pip. The convict Magwitch", passage, 10).orElseThrow();
        assertThat(passage.substring(span.start() - 10, span.end() - 10)).isEqualTo("Pip.\n  The convict\tMagwitch");
        assertThat(SpanLocator.locate("Pip.The convict", passage, 0))
                .as("a space in the quote needs whitespace in the passage")
                .isEmpty();
        assertThat(SpanLocator.locate("Pip. The  convict  Magwitch was", passage, 0))
                .as("the quote runs past the end of the passage")
                .isEmpty();
        assertThat(SpanLocator.locate("pip. the convict", passage, 0))
                .as("case matters")
                .isEmpty();
        assertThat(SpanLocator.locate(null, passage, 0)).isEmpty();
        assertThat(SpanLocator.locate(" \n", passage, 0)).isEmpty();
    }

    @Test
    void spanLocatorMatchesAQuoteEndingAtThePassagesEnd() {
        String passage = "the marshes  at\nnight";
        assertThat(SpanLocator.locate("marshes at night", passage, 3)).contains(new Span(7, 3 + passage.length()));
    }

    @Test
    void spanLocatorPrefersTheExactQuoteToAnEarlierOneSpacedDifferently() {
        String passage = "Pip  met Joe. Pip met Joe.";
        assertThat(SpanLocator.locate("Pip met Joe", passage, 0)).contains(new Span(14, 25));
        assertThat(SpanLocator.locate("Pip met  Joe", passage, 0))
                .as("without an exact match, the first one up to whitespace")
                .contains(new Span(0, 12));
    }

    @Test
    void spanLocatorNeedsWhitespaceWhereTheQuoteHasSomeAndStopsAtThePassagesEnd() {
        assertThat(SpanLocator.locate("told Pip. The", "told Pip.The end", 0)).isEmpty();
        assertThat(SpanLocator.locate("marshes at", "the marshes   ", 0))
                .as("the passage ends in the whitespace the quote goes on after")
                .isEmpty();
    }

    // ---------------------------------------------------------------- QuoteResolver

    @Test
    void resolverTriesExactThenWhitespaceThenNormalized() {
        var exact = QuoteResolver.resolve(" Little Britain ", PASSAGE, 5).orElseThrow();
        assertThat(exact.method()).isEqualTo(QuoteResolver.Method.EXACT);
        assertThat(exact.span()).isEqualTo(new Span(5 + PASSAGE.indexOf("Little"), 5 + PASSAGE.indexOf(", who")));

        var spaced = QuoteResolver.resolve("told Pip. The convict", PASSAGE, 0).orElseThrow();
        assertThat(spaced.method()).isEqualTo(QuoteResolver.Method.WHITESPACE);
        assertThat(text(spaced.span(), 0)).isEqualTo("told Pip.\nThe convict");

        var normalized =
                QuoteResolver.resolve("MR JAGGERS a lawyer", PASSAGE, 7).orElseThrow();
        assertThat(normalized.method()).isEqualTo(QuoteResolver.Method.NORMALIZED);
        assertThat(text(normalized.span(), 7)).isEqualTo("Mr. Jaggers, a lawyer");
    }

    @Test
    void aQuoteAtThePassagesStartIsFoundByTheFirstMethodThatFindsIt() {
        assertThat(QuoteResolver.resolve("It was Mr. Jaggers", PASSAGE, 0).orElseThrow())
                .isEqualTo(new QuoteResolver.Resolved(new Span(0, 18), QuoteResolver.Method.EXACT));
        assertThat(QuoteResolver.resolve("IT WAS MR JAGGERS", PASSAGE, 0).orElseThrow())
                .isEqualTo(new QuoteResolver.Resolved(new Span(0, 18), QuoteResolver.Method.NORMALIZED));
    }

    @Test
    void ofTwoEquallyCloseWindowsTheFirstIsTaken() {
        String passage = "The convict Magwitch came back. Later the convict Magwitch came back again.";
        var found =
                QuoteResolver.resolve("the convict Magw7tch came", passage, 0).orElseThrow();
        assertThat(found.method()).isEqualTo(QuoteResolver.Method.FUZZY);
        assertThat(found.span()).isEqualTo(new Span(0, passage.indexOf(" back.")));
    }

    @Test
    void aNormalizedQuoteNeedsThreeLettersOrDigits() {
        assertThat(QuoteResolver.resolve("B A", "x b-a-c y", 0))
                .as("two letters say nothing")
                .isEmpty();
        var three = QuoteResolver.resolve("B A C", "x b-a-c y", 10).orElseThrow();
        assertThat(three.method()).isEqualTo(QuoteResolver.Method.NORMALIZED);
        assertThat(three.span()).isEqualTo(new Span(12, 17));
        assertThat(QuoteResolver.resolve(null, PASSAGE, 0)).isEmpty();
        assertThat(QuoteResolver.resolve("\t ", PASSAGE, 0)).isEmpty();
    }

    @Test
    void fuzzyResolutionToleratesEditsUpToATenthOfTheQuotesLength() {
        int letters = letters(SEGMENT);
        int tolerated = letters / 10;
        assertThat(tolerated).isGreaterThanOrEqualTo(3);

        var within =
                QuoteResolver.resolve(edited(SEGMENT, tolerated), PASSAGE, 20).orElseThrow();
        assertThat(within.method()).isEqualTo(QuoteResolver.Method.FUZZY);
        assertThat(text(within.span(), 20)).isEqualTo(SEGMENT);

        assertThat(QuoteResolver.resolve(edited(SEGMENT, tolerated + 1), PASSAGE, 20))
                .as("one edit more than a tenth of %d letters", letters)
                .isEmpty();
        assertThat(QuoteResolver.resolve(edited(SEGMENT, letters / 4), PASSAGE, 20))
                .as("a quarter of the letters changed is another sentence")
                .isEmpty();
    }

    @Test
    void fuzzyResolutionStartsAtTwelveLettersAndStopsAtSixHundred() {
        String twelve = "prosperedgre"; // 12 letters
        String passage = "Magwitch had " + "prospered greatly" + " in Wales";
        var found =
                QuoteResolver.resolve(edited("prospered gre", 1), passage, 0).orElseThrow();
        assertThat(found.method()).isEqualTo(QuoteResolver.Method.FUZZY);
        assertThat(letters(twelve)).isEqualTo(QuoteResolver.MIN_FUZZY_LENGTH);
        assertThat(QuoteResolver.resolve(edited("prospered gr", 1), passage, 0))
                .as("eleven letters are too few to match approximately")
                .isEmpty();

        StringBuilder longText = new StringBuilder();
        java.util.Random random = new java.util.Random(34);
        while (longText.length() < 1200) {
            for (int i = 0, n = 3 + random.nextInt(6); i < n; i++) {
                longText.append((char) ('a' + random.nextInt(26)));
            }
            longText.append(' ');
        }
        String source = longText.toString();
        String six = prefixWithLetters(source, QuoteResolver.MAX_FUZZY_LENGTH);
        var atMax = QuoteResolver.resolve(edited(six, 1), source, 0).orElseThrow();
        assertThat(atMax.method()).isEqualTo(QuoteResolver.Method.FUZZY);
        assertThat(text(atMax.span(), 0, source)).isEqualTo(six.strip());
        String sixOne = prefixWithLetters(source, QuoteResolver.MAX_FUZZY_LENGTH + 1);
        assertThat(QuoteResolver.resolve(edited(sixOne, 1), source, 0))
                .as("longer quotes are not searched approximately")
                .isEmpty();
    }

    // ---------------------------------------------------------------- CitationVerifier

    private static final UUID DOC = UUID.fromString("00000000-0000-0000-0000-000000000001");
    private static final UUID OTHER = UUID.fromString("00000000-0000-0000-0000-000000000002");
    private static final String TEXT = "Pip met the convict\n  in the churchyard.";

    private static CitationVerifier verifier() {
        Documents documents = mock(Documents.class);
        when(documents.text(DOC)).thenReturn(TEXT);
        when(documents.text(OTHER)).thenReturn(TEXT);
        when(documents.placeOf(eq(DOC), any())).thenReturn(Optional.of(new Documents.Place("D1:1", null, null)));
        when(documents.placeOf(eq(OTHER), any())).thenReturn(Optional.empty());
        return new CitationVerifier(documents);
    }

    @Test
    void aCitationSurvivesWithTheSourcesOwnTextAndItsTurn() {
        int start = TEXT.indexOf("the convict");
        int end = TEXT.indexOf(" the church");
        Citation spaced = Citation.of(DOC, start, end, "the convict in");
        var result = verifier().verify(List.of(spaced), Set.of(DOC));
        assertThat(result.kept()).containsExactly(new Citation(DOC, start, end, "the convict\n  in", "D1:1"));
        assertThat(result.dropped()).isEmpty();

        Citation whole = Citation.of(DOC, 0, TEXT.length(), TEXT);
        assertThat(verifier().verify(List.of(whole), Set.of(DOC)).kept())
                .as("a quote may end at the text's end")
                .containsExactly(whole.withTurnId("D1:1"));
    }

    @Test
    void citationsOutsideTheTextOtherDocumentsOrWithOtherWordsAreDropped() {
        List<Citation> bad = List.of(
                Citation.of(OTHER, 0, 3, "Pip"),
                Citation.of(null, 0, 3, "Pip"),
                Citation.of(DOC, 0, 3, null),
                Citation.of(DOC, -1, 3, "Pip"),
                Citation.of(DOC, 30, TEXT.length() + 1, TEXT.substring(30)),
                Citation.of(DOC, 3, 3, ""),
                Citation.of(DOC, 4, 3, ""),
                Citation.of(DOC, 0, 3, "Pop"),
                Citation.of(DOC, 0, 7, "Pip mat"));
        var result = verifier().verify(bad, Set.of(DOC));
        assertThat(result.kept()).isEmpty();
        assertThat(result.dropped()).containsExactlyElementsOf(bad);
    }

    @Test
    void aRepeatedCitationIsKeptOnceAndNotCountedAsDropped() {
        Citation pip = Citation.of(DOC, 0, 3, "Pip");
        Citation other = Citation.of(OTHER, 0, 3, "Pip");
        var result = verifier().verify(List.of(pip, pip, other), Set.of(DOC, OTHER));
        assertThat(result.kept()).containsExactly(pip.withTurnId("D1:1"), other);
        assertThat(result.dropped()).isEmpty();
        assertThat(CitationVerifier.collapse("  a \n\t b  ")).isEqualTo("a b");
    }

    // ---------------------------------------------------------------- helpers

    private static String text(Span span, int offset) {
        return text(span, offset, PASSAGE);
    }

    private static String text(Span span, int offset, String passage) {
        return passage.substring(span.start() - offset, span.end() - offset);
    }

    private static int letters(String s) {
        return (int) s.chars().filter(Character::isLetterOrDigit).count();
    }

    /** {@code edits} letters of {@code s}, spread over its middle, replaced by a digit no passage here holds. */
    private static String edited(String s, int edits) {
        char[] chars = s.toCharArray();
        int[] positions = java.util.stream.IntStream.range(0, chars.length)
                .filter(i -> Character.isLetter(chars[i]))
                .toArray();
        int inner = positions.length - 4;
        for (int e = 0; e < edits; e++) {
            chars[positions[2 + (int) ((long) inner * (2 * e + 1) / (2L * edits))]] = '7';
        }
        return new String(chars);
    }

    /** The shortest prefix of {@code s} holding {@code n} letters or digits. */
    private static String prefixWithLetters(String s, int n) {
        int count = 0;
        for (int i = 0; i < s.length(); i++) {
            if (Character.isLetterOrDigit(s.charAt(i)) && ++count == n) {
                return s.substring(0, i + 1);
            }
        }
        throw new IllegalArgumentException("too short");
    }
}
