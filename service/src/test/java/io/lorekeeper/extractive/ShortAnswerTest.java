package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.lorekeeper.extractive.ShortAnswer.Answer;
import io.lorekeeper.extractive.ShortAnswer.Kind;

/** The pieces a sentence offers as answers; which one answers is {@link SpanRankerTest}'s subject. */
class ShortAnswerTest {

    private static final LocalDate SAID = LocalDate.of(2023, 5, 8);

    private static List<Answer> pieces(String question, String sentence, LocalDate said) {
        return ShortAnswer.candidates(question, sentence, said);
    }

    private static Answer piece(String question, String sentence, LocalDate said, String text) {
        return pieces(question, sentence, said).stream()
                .filter(a -> a.text().equals(text))
                .findFirst()
                .orElseThrow(() ->
                        new AssertionError("no piece \"" + text + "\" among " + pieces(question, sentence, said)));
    }

    @Test
    void aTimeExpressionIsOfferedResolvedAndPointsAtTheWordsItCameFrom() {
        String sentence = "I went to a LGBTQ support group yesterday and it was so powerful.";

        Answer a = piece("When did Caroline go to the LGBTQ support group?", sentence, SAID, "7 May 2023");

        assertThat(a.kind()).isEqualTo(Kind.DATE);
        assertThat(a.derived()).isTrue();
        assertThat(a.span().of(sentence)).isEqualTo("yesterday");
    }

    @Test
    void aConversationTurnWithoutATimeExpressionOffersTheDayItWasSaid() {
        String sentence = "I just launched an ad campaign for my store!";

        Answer a = piece("When did Gina launch an ad campaign?", sentence, SAID, "8 May 2023");

        assertThat(a.kind()).isEqualTo(Kind.SESSION_DATE);
        assertThat(a.span().of(sentence)).isEqualTo(sentence);
        assertThat(pieces("When did Gina launch it?", "I launched it on 3 March, 2021.", SAID))
                .extracting(Answer::kind)
                .doesNotContain(Kind.SESSION_DATE); // a turn that says its time speaks of that time
    }

    @Test
    void aPlainTextOffersExplicitDatesOnlyAndAYearWhereAYearIsAsked() {
        Answer dated = piece(
                "When did the mill burn?", "The mill burned on 3 March, 1861, in the night.", null, "3 March 1861");
        assertThat(dated.derived()).isTrue(); // reformatted: "3 March, 1861" loses its comma
        assertThat(pieces("When did the mill burn?", "The mill burned on 3 March, 1861, in the night.", null))
                .extracting(Answer::text)
                .as("no fragment of the date as a phrase")
                .doesNotContain("3 March", "1861");
        assertThat(pieces("When did the mill burn?", "The mill burned down while everyone slept.", null))
                .extracting(Answer::kind)
                .doesNotContain(Kind.DATE, Kind.SESSION_DATE);

        String sentence = "Carla Reni (born 3 May 1956) is an Italian physicist who has worked in Spain since 2001.";
        List<String> years = pieces("Since what year has the physicist worked in Spain?", sentence, null).stream()
                .filter(a -> a.kind() == Kind.DATE)
                .map(Answer::text)
                .toList();
        assertThat(years).containsExactly("1956", "2001");
    }

    @Test
    void namesTheQuestionDoesNotHoldAreOfferedAloneAndTogether() {
        String sentence = "Then Hector Munro told Ada that the lamp had been left burning.";
        assertThat(piece("Who told Ada about the lamp?", sentence, null, "Hector Munro")
                        .span()
                        .of(sentence))
                .isEqualTo("Hector Munro");
        assertThat(pieces("Who told Ada about the lamp?", sentence, null))
                .filteredOn(a -> a.kind() == Kind.NAMES)
                .extracting(Answer::text)
                .doesNotContain("Ada", "Then Hector Munro");

        List<Answer> met =
                pieces("Who have Maria's friends met?", "Yesterday I met David and Jean at the shelter.", null);
        assertThat(met)
                .filteredOn(a -> a.kind() == Kind.NAMES)
                .extracting(Answer::text)
                .containsExactly("David", "Jean");
        assertThat(met)
                .as("joined: a list of its own kind, which the ranker weighs apart from one name")
                .filteredOn(a -> a.kind() == Kind.NAME_LIST)
                .extracting(Answer::text)
                .containsExactly("David, Jean");
        assertThat(met)
                .filteredOn(a -> a.kind() == Kind.NAMES || a.kind() == Kind.NAME_LIST)
                .extracting(Answer::text)
                .noneMatch(name -> name.contains("Yesterday"));
        assertThat(pieces("What is the name of Maria's puppy?", "Meet Shadow, my second puppy!", null))
                .filteredOn(a -> a.kind() == Kind.NAMES)
                .extracting(Answer::text)
                .containsExactly("Shadow");
    }

    @Test
    void wordsThatOpenASentenceAreNotNames() {
        assertThat(pieces(
                        "Who inspired Maria to volunteer?",
                        "Even as a kid I watched my aunt volunteer, and Jean kept me going.",
                        null))
                .filteredOn(a -> a.kind() == Kind.NAMES)
                .extracting(Answer::text)
                .containsExactly("Jean");
    }

    @Test
    void aTitledParagraphOffersItsTitleForADescriptionOfItsSubject() {
        String sentence =
                "Ada Brightwater\nAdeline Mary Brightwater (born 4 June 1931) is an English astronomer who mapped dwarf galaxies.";

        Answer a = piece("Which English astronomer mapped dwarf galaxies?", sentence, null, "Ada Brightwater");

        assertThat(a.span().of(sentence)).isEqualTo("Ada Brightwater");
        assertThat(pieces(
                        "Who directed the film Harbour Lights?",
                        "Harbour Lights\nHarbour Lights is a film by Colin Marsh.",
                        null))
                .extracting(Answer::text)
                .contains("Colin Marsh")
                .doesNotContain("Harbour Lights"); // the question names the title
    }

    @Test
    void aHardWrappedLineOfABookIsNoHeading() {
        String sentence = "“I have been told by a man named Abel Marsh, that he is the\nfriend so long unknown to me.”";

        assertThat(ShortAnswer.headingEnd(sentence)).isZero();
        assertThat(pieces("Who is Tom's secret friend?", sentence, null))
                .extracting(Answer::text)
                .contains("Abel Marsh");
        assertThat(ShortAnswer.headingEnd("Harbour Lights (1952 film)\nHarbour Lights is a film."))
                .isEqualTo(27);
    }

    @Test
    void anXIsYSentenceOffersItsSubjectWhenTheQuestionDescribesIt() {
        String sentence = "Glasswing is a science fiction series of novels for young readers written by Tom Reyes.";

        assertThat(piece(
                                "What science fiction series for young readers has companion novels?",
                                sentence,
                                null,
                                "Glasswing")
                        .kind())
                .isEqualTo(Kind.SUBJECT);
        assertThat(ShortAnswer.subject(ShortAnswer.words("What is Glasswing?"), sentence))
                .isEmpty(); // named already
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "What martial arts has John done?|true",
                "What books has Melanie read?|true",
                "Who have written notes to Maria?|true",
                "What kind of dogs does Maria have?|true",
                "What did Maria bake?|false",
                "What is the series about?|false",
                "Who has Maria met?|false"
            })
    void readsWhetherSeveralThingsAreAskedFor(String question, boolean several) {
        assertThat(ShortAnswer.asksForSeveral(question)).isEqualTo(several);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I have three kids and they keep me busy.|three kids",
                "He went twice that spring.|twice",
                "She was 16 then.|16",
                "On the last night he counted forty-two ships in the bay.|forty-two ships",
                "She bought a dozen eggs at the market.|a dozen eggs",
                "There were two hundred sheep on the hill.|two hundred sheep",
                "Seventy-five guests came to the wedding.|Seventy-five guests",
                "She finished third in the race.|third",
                "It was his twenty-first birthday.|twenty-first birthday",
                "The 3rd edition came out late.|3rd edition",
                "In 2022 the crew launched 31 times and rescued 12 people.|12 people"
            })
    void numbersInEveryWrittenFormAreOfferedWithWhatTheyCount(String sentence, String number) {
        Answer a = piece("How many?", sentence, null, number);

        assertThat(a.kind()).isEqualTo(Kind.NUMBER);
        assertThat(a.span().of(sentence)).isEqualTo(number);
        assertThat(pieces("How many?", sentence, null))
                .extracting(Answer::text)
                .as("no piece of a hyphenated number alone")
                .doesNotContain("two ships", "five guests", "first birthday");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "What activity did John's colleague, Rob, invite him to?|Rob invited me to a beginner's yoga class.|beginner's yoga class",
                "What did Melanie paint recently?|I just finished painting a sunset over the lake!|sunset over the lake",
                "What did Maria adopt last month?|We adopted a shy little beagle from the shelter!|shy little beagle from the shelter"
            })
    void theRunsOfWordsASentenceAddsToTheQuestionAreOffered(String question, String sentence, String phrase) {
        Answer a = piece(question, sentence, null, phrase);

        assertThat(a.kind()).isEqualTo(Kind.PHRASE);
        assertThat(a.derived()).isFalse();
        assertThat(a.span().of(sentence)).isEqualTo(phrase);
    }

    @Test
    void theWholeSentenceIsAlwaysOfferedLast() {
        String sentence = "Did Pip leave?";

        List<Answer> offered = pieces("Why did Pip leave?", sentence, null);

        assertThat(offered).extracting(Answer::text).containsExactly(sentence); // nothing beyond the question's words
        assertThat(offered.getLast().isWholeSentence()).isTrue();
    }
}
