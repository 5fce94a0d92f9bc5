package io.lorekeeper.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TermsTest {

    @Test
    void possessiveIsStrippedAndPluralStemmed() {
        assertThat(Terms.of("Pip's benefactors")).containsExactly("pip", "benefactor");
    }

    @Test
    void typographicApostropheIsStrippedLikeAsciiOne() {
        assertThat(Terms.of("Pip’s benefactors")).containsExactly("pip", "benefactor");
    }

    @Test
    void differentPhrasingsOfTheSameIdeaShareTerms() {
        assertThat(Set.copyOf(Terms.of("benefactor of Pip"))).isEqualTo(Set.copyOf(Terms.of("Pip's benefactors")));
    }

    @Test
    void stopWordsAreDropped() {
        assertThat(Terms.of("The convict was in the marshes")).containsExactly("convict", "marsh");
    }

    @Test
    void textOfOnlyStopWordsHasNoTerms() {
        assertThat(Terms.of("It is the and of a")).isEmpty();
    }

    @Test
    void questionWordsAreNotStopWords() {
        assertThat(Terms.of("Who is the man?")).containsExactly("who", "man");
    }

    @Test
    void emptyTextHasNoTerms() {
        assertThat(Terms.of("")).isEmpty();
        assertThat(Terms.of("  ,.!? ")).isEmpty();
    }

    @Test
    void punctuationIsRemovedAndCaseFolded() {
        assertThat(Terms.of("Hello, WORLD! Estella?")).containsExactly("hello", "world", "estella");
    }

    @Test
    void orderAndRepetitionArePreserved() {
        assertThat(Terms.of("Joe met Joe")).containsExactly("joe", "met", "joe");
    }

    @ParameterizedTest
    @CsvSource({"running, run", "happiness, happi", "marshes, marsh", "benefactors, benefactor", "1823, 1823"})
    void porterStemming(String word, String term) {
        assertThat(Terms.of(word)).containsExactly(term);
    }
}
