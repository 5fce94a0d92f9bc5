package io.lorekeeper.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;

class WordProximityTest {

    @Test
    void wordsThatShapeTheQuestionAreNotCounted() {
        WordProximity terms = WordProximity.ofTerms(Set.of("miss", "havisham", "hous"));
        assertThat(terms.together("Miss Havisham's house", 30)).isEqualTo(1.0);
        assertThat(terms.together("Miss Havisham and the name of what", 30)).isEqualTo(2.0 / 3);
        assertThat(terms.together("the house", 30))
                .as("one term alone is no meeting")
                .isZero();
        // the same two words, too far apart
        assertThat(terms.together("Havisham " + "word ".repeat(40) + "house", 30))
                .isZero();
    }

    @Test
    void aQuestionsTermsLeaveOutWhatShapesTheQuestion() {
        assertThat(WordProximity.of("What is the name of Miss Havisham's house?")
                        .terms())
                .containsExactlyInAnyOrder("miss", "havisham", "hous");
        assertThat(WordProximity.of("Who did she marry?").terms()).containsExactly("marri");
    }
}
