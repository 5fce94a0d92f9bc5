package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CountsTest {

    @Test
    void theCountedNounIsTheWordAfterHowMany() {
        String noun = Counts.askedNoun("How many copies of the Tamsin novels were sold?")
                .orElseThrow();

        assertThat(Counts.counts("Her books have sold more than 40 million copies worldwide.", noun))
                .isTrue();
        assertThat(Counts.counts("The Best of Tamsin is a collection of 25 of her short stories.", noun))
                .isFalse();
    }

    @Test
    void aModifierBeforeAPluralNounIsSkippedInTheQuestionAndInTheSentence() {
        String noun =
                Counts.askedNoun("How many Olympic medals did Orla Finch win?").orElseThrow();

        assertThat(Counts.counts("At the games she won three gold medals.", noun))
                .isTrue();
        assertThat(Counts.counts("She was one of the first swimmers from Tarn.", noun))
                .isFalse();
    }

    @Test
    void numberOfAsksForACountToo() {
        String noun = Counts.askedNoun("What was the number of inhabitants of Velden in 2010?")
                .orElseThrow();

        assertThat(Counts.counts("In 2010 Velden had 12,384 inhabitants.", noun))
                .isTrue();
    }

    @Test
    void aQuestionThatCountsNothingHasNoCountedNoun() {
        assertThat(Counts.askedNoun("When was Velden founded?")).isEmpty();
    }
}
