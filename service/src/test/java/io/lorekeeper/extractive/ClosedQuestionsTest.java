package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClosedQuestionsTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "Did Jon and Gina both take part in dance contests?|true",
                "Would Caroline move back to her home country?|true",
                "Is the castle older than the abbey?|true",
                "Does John live near a beach or the mountains?|false",
                "What did Jon dance?|false",
                "Who is older, Ada Lane or Bert Moss?|false"
            })
    void recognisesYesNoQuestions(String question, boolean yesNo) {
        assertThat(ClosedQuestions.isYesNo(question)).isEqualTo(yesNo);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "Who is older, Ada Lane or Bert Moss?|Ada Lane|Bert Moss",
                "who is younger Keith Marlow or Jerry Vance ?|Keith Marlow|Jerry Vance",
                "Which was founded first, the Old Mill Company or Harbour Press?|Old Mill Company|Harbour Press",
                "Does John live close to a beach or the mountains?|beach|mountains"
            })
    void readsTheAlternativesAQuestionOffers(String question, String first, String second) {
        assertThat(ClosedQuestions.alternatives(question)).containsExactly(first, second);
    }

    @Test
    void aQuestionWithoutAlternativesOffersNone() {
        assertThat(ClosedQuestions.alternatives("What did Maria bake for the shelter?"))
                .isEmpty();
        assertThat(ClosedQuestions.alternatives("What colour do people wear during the parade or the festival"))
                .isEmpty();
    }

    @Test
    void yesWhenTheEvidenceHoldsWhatTheQuestionAssertsElseNo() {
        String question = "Did Gina enter a dance competition?";

        assertThat(ClosedQuestions.yesOrNo(question, "Gina and her crew won the regional dance competition last year."))
                .isEqualTo("Yes");
        assertThat(ClosedQuestions.yesOrNo(question, "I opened my clothing store this spring."))
                .isEqualTo("No");
    }

    @Test
    void aComparisonInTimeGoesToTheEarlierOrTheLater() {
        assertThat(ClosedQuestions.timeDirection("Who is older, Ada Lane or Bert Moss?"))
                .isEqualTo(-1);
        assertThat(ClosedQuestions.timeDirection("Which was founded first, A or B?"))
                .isEqualTo(-1);
        assertThat(ClosedQuestions.timeDirection("who is younger A or B?")).isEqualTo(1);
        assertThat(ClosedQuestions.timeDirection("Which is taller, A or B?")).isEqualTo(0);
        assertThat(ClosedQuestions.firstYear("Ada Lane (born October 8, 1970) is an American model."))
                .contains(1970);
        assertThat(ClosedQuestions.firstYear("Bert Moss is a photographer.")).isEmpty();
    }
}
