package io.lorekeeper.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;

class WordProximityTest {

    @Test
    void wordsThatShapeTheQuestionAreNotCounted() {
        Set<String> terms = Set.of("miss", "havisham", "hous");
        assertThat(WordProximity.together(terms, "Miss Havisham's house", 30)).isEqualTo(1.0);
        assertThat(WordProximity.together(terms, "Miss Havisham and the name of what", 30))
                .isEqualTo(2.0 / 3);
        assertThat(WordProximity.together(terms, "the house", 30))
                .as("one term alone is no meeting")
                .isZero();
        // the same two words, too far apart
        assertThat(WordProximity.together(terms, "Havisham " + "word ".repeat(40) + "house", 30))
                .isZero();
    }

    @Test
    void aQuestionsTermsLeaveOutWhatShapesTheQuestion() {
        assertThat(WordProximity.questionTerms("What is the name of Miss Havisham's house?"))
                .containsExactlyInAnyOrder("miss", "havisham", "hous");
        assertThat(WordProximity.questionTerms("Who did she marry?")).containsExactly("marri");
    }
}
