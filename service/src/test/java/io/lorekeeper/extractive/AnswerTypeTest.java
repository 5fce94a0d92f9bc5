package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class AnswerTypeTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "Who gave Pip the money?|PERSON",
                "whom did Estella marry?|PERSON",
                "Whose house was it?|PERSON",
                "  WHO is the convict?|PERSON",
                "Which character sent the money?|PERSON",
                "What name did Pip use?|PERSON",
                "When did Pip leave the forge?|TIME",
                "What year did Caroline move?|TIME",
                "On which day did they meet?|TIME",
                "How long did Pip stay in London?|TIME",
                "How many children did Joe have?|QUANTITY",
                "How much money was there?|QUANTITY",
                "How old is Estella?|QUANTITY",
                "What age was Pip?|QUANTITY",
                "Where did Magwitch hide?|PLACE",
                "In what city did Pip live?|PLACE",
                "Which town is the forge near?|PLACE",
                "Why did Pip leave?|OTHER",
                "What did Pip eat?|OTHER",
                "Describe the marshes.|OTHER",
                "Whoever wrote this letter?|OTHER",
                "Somewhere near the church?|OTHER"
            })
    void readsTheAnswerTypeFromTheQuestion(String question, AnswerType expected) {
        assertThat(AnswerType.of(question)).isEqualTo(expected);
    }

    /** Known means "a sentence can be checked for it": each known type is found in some sentence, OTHER in none. */
    @ParameterizedTest
    @EnumSource(AnswerType.class)
    void aTypeIsKnownExactlyWhenASentenceCanHoldIt(AnswerType type) {
        List<String> sentences = List.of(
                "The money came from Magwitch.",
                "He left on Sunday.",
                "He had three sons.",
                "She came from Satis House.",
                "Magwitch sent 500 pounds to London in May.");

        boolean foundSomewhere = sentences.stream().anyMatch(s -> type.foundIn(s, "Who sent it?"));

        assertThat(type.isKnown()).isEqualTo(foundSomewhere);
        assertThat(foundSomewhere).isEqualTo(type != AnswerType.OTHER);
    }

    @Test
    void otherIsUnknownAndNeverFound() {
        assertThat(AnswerType.OTHER.isKnown()).isFalse();
        assertThat(AnswerType.OTHER.foundIn("Magwitch sent 500 pounds to London in May.", "What happened?"))
                .isFalse();
    }

    // ---------------------------------------------------------------- PERSON

    private static final String WHO_SENT = "Who sent the money?";

    @Test
    void personIsFoundAsACapitalisedNameNotInTheQuestion() {
        assertThat(AnswerType.PERSON.foundIn("The money came from Magwitch.", WHO_SENT))
                .isTrue();
    }

    @Test
    void personNameAlreadyInTheQuestionDoesNotCount() {
        assertThat(AnswerType.PERSON.foundIn("The money came to Pip.", "Who sent money to Pip?"))
                .isFalse();
    }

    @Test
    void personNameInTheQuestionIsMatchedCaseInsensitively() {
        assertThat(AnswerType.PERSON.foundIn("The money came to Pip.", "who sent money to pip?"))
                .isFalse();
    }

    @Test
    void capitalisedFirstWordIsNotAName() {
        assertThat(AnswerType.PERSON.foundIn("Yesterday the money came.", WHO_SENT))
                .isFalse();
        assertThat(AnswerType.PERSON.foundIn("Magwitch sent it.", WHO_SENT)).isFalse();
    }

    @Test
    void firstWordAfterOpeningQuoteIsStillTheFirstWord() {
        assertThat(AnswerType.PERSON.foundIn("“Magwitch,” he said softly.", WHO_SENT))
                .isFalse();
    }

    @Test
    void honorificsAndPronounsAreNotNames() {
        assertThat(AnswerType.PERSON.foundIn("It came, Sir, from a friend.", WHO_SENT))
                .isFalse();
        assertThat(AnswerType.PERSON.foundIn("Then Mr. Pip paid.", "Who paid Pip?"))
                .isFalse();
        assertThat(AnswerType.PERSON.foundIn("So I said that He would.", WHO_SENT))
                .isFalse();
    }

    @Test
    void nameAfterHonorificCounts() {
        assertThat(AnswerType.PERSON.foundIn("It was sent by Mr. Jaggers.", WHO_SENT))
                .isTrue();
    }

    @Test
    void questionsThatRepeatAWordAreFine() {
        assertThat(AnswerType.PERSON.foundIn(
                        "Hector Munro left the lamp burning.", "Who started the fire at the old mill?"))
                .isTrue();
    }

    @Test
    void lowerCaseSentenceHasNoPerson() {
        assertThat(AnswerType.PERSON.foundIn("the money came from a friend.", WHO_SENT))
                .isFalse();
    }

    @Test
    void nameThatIsOnlyASubstringOfAQuestionWordIsNew() {
        assertThat(AnswerType.PERSON.foundIn("My friend Tom is coming tomorrow.", "Who is coming tomorrow?"))
                .isTrue();
    }

    // ---------------------------------------------------------------- TIME, QUANTITY, PLACE

    @ParameterizedTest
    @ValueSource(
            strings = {
                "He left in May.",
                "He left yesterday.",
                "He left on the 3rd.",
                "It was 1823.",
                "He left last week.",
                "It happened on Sunday.",
                "We met three months ago."
            })
    void timeIsFound(String sentence) {
        assertThat(AnswerType.TIME.foundIn(sentence, "When did he leave?")).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"He left happily.", "The forge was hot.", "Pip went to London."})
    void timeIsNotFound(String sentence) {
        assertThat(AnswerType.TIME.foundIn(sentence, "When did he leave?")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "He had three sons.",
                "He had 12 sons.",
                "It cost 2.50 pounds.",
                "He came twice.",
                "A dozen eggs."
            })
    void quantityIsFound(String sentence) {
        assertThat(AnswerType.QUANTITY.foundIn(sentence, "How many?")).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"He had sons.", "Someone came.", "The forge was hot."})
    void quantityIsNotFound(String sentence) {
        assertThat(AnswerType.QUANTITY.foundIn(sentence, "How many?")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "He lived in London.",
                "He stayed at the Blue Boar.",
                "They went to Paris.",
                "She came from Satis House."
            })
    void placeIsFound(String sentence) {
        assertThat(AnswerType.PLACE.foundIn(sentence, "Where did he live?")).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"He lived in a house.", "London was foggy.", "He went to the marshes."})
    void placeIsNotFound(String sentence) {
        assertThat(AnswerType.PLACE.foundIn(sentence, "Where did he live?")).isFalse();
    }

    @Test
    void askedWhenSomeoneWasBornOnlyASentenceWithABirthDateHoldsTheAnswer() {
        String question = "When was the lobbyist who worked on the Reed campaign born?";

        assertThat(AnswerType.TIME.foundIn("Tom Reed (born April 1, 1949) is a lobbyist.", question))
                .isTrue();
        assertThat(AnswerType.TIME.foundIn("He worked on the 2016 Reed campaign.", question))
                .isFalse();
        assertThat(AnswerType.TIME.foundIn("He worked on the 2016 Reed campaign.", "When did he work on it?"))
                .isTrue();
    }
}
