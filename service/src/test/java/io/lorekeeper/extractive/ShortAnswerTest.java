package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.lorekeeper.extractive.ShortAnswer.Answer;
import io.lorekeeper.extractive.ShortAnswer.Kind;

class ShortAnswerTest {

    private static final LocalDate SAID = LocalDate.of(2023, 5, 8);

    private static Answer answer(String question, String sentence, LocalDate said) {
        Candidate candidate = new Candidate(
                java.util.UUID.randomUUID(), new io.lorekeeper.text.Span(0, sentence.length()), sentence, 0, 0, 1.0);
        return SpanRanker.bestIn(question, AnswerType.of(question), candidate, said, said == null);
    }

    @Test
    void whenAnswersWithTheResolvedDateAndPointsAtTheWordsItCameFrom() {
        String sentence = "I went to a LGBTQ support group yesterday and it was so powerful.";

        Answer a = answer("When did Caroline go to the LGBTQ support group?", sentence, SAID);

        assertThat(a.text()).isEqualTo("7 May 2023");
        assertThat(a.kind()).isEqualTo(Kind.DATE);
        assertThat(a.derived()).isTrue();
        assertThat(a.span().of(sentence)).isEqualTo("yesterday");
    }

    @Test
    void whenWithoutATimeExpressionInAConversationMeansTheDayItWasSaid() {
        String sentence = "I just launched an ad campaign for my store!";

        Answer a = answer("When did Gina launch an ad campaign?", sentence, SAID);

        assertThat(a.text()).isEqualTo("8 May 2023");
        assertThat(a.kind()).isEqualTo(Kind.SESSION_DATE);
        assertThat(a.span().of(sentence)).isEqualTo(sentence);
    }

    @Test
    void whenInAPlainTextKeepsAnExplicitDateVerbatimAndOtherwiseFallsBackToTheSentence() {
        Answer dated = answer("When did the mill burn?", "The mill burned on 3 March, 1861, in the night.", null);
        assertThat(dated.text()).isEqualTo("3 March 1861");
        assertThat(dated.derived()).isTrue(); // reformatted: "3 March, 1861" loses its comma

        String vague = "The mill burned down while everyone slept.";
        Answer fallback = answer("When did the mill burn?", vague, null);
        assertThat(fallback.kind()).isNotEqualTo(Kind.DATE);
        assertThat(fallback.derived()).isFalse();
        assertThat(vague).contains(fallback.text());
    }

    @Test
    void whoAnswersWithTheNamesTheQuestionDoesNotAlreadyHold() {
        String sentence = "Then Hector Munro told Ada that the lamp had been left burning.";

        Answer a = answer("Who told Ada about the lamp?", sentence, null);

        assertThat(a.text()).isEqualTo("Hector Munro");
        assertThat(a.kind()).isEqualTo(Kind.NAMES);
        assertThat(a.span().of(sentence)).isEqualTo("Hector Munro");
    }

    @Test
    void whoListsSeveralPeopleInTheirOrderWhenSeveralAreAskedFor() {
        Answer a = answer(
                "Who have Maria's friends met while volunteering?",
                "Yesterday I met David and Jean at the shelter.",
                null);

        assertThat(a.text()).isEqualTo("David, Jean");
    }

    @Test
    void whoAsksForOnePersonAndGetsTheNameNearestTheQuestionsWords() {
        String sentence = "\"Lonely Roads\" is a ballad written by Marta Kowal and recorded by Ines Varga.";

        Answer a = answer("Who was the writer of Lonely Roads, a ballad?", sentence, null);

        assertThat(a.text()).isEqualTo("Marta Kowal");
        assertThat(a.span().of(sentence)).isEqualTo("Marta Kowal");
    }

    @Test
    void wordsThatOpenASentenceAreNotNames() {
        Answer a = answer(
                "Who inspired Maria to volunteer?",
                "Even as a kid I watched my aunt volunteer, and Jean kept me going.",
                null);

        assertThat(a.text()).isEqualTo("Jean");
    }

    @Test
    void aTitledParagraphAnswersADescriptionOfItsSubjectWithTheTitle() {
        String sentence =
                "Ada Brightwater\nAdeline Mary Brightwater (born 4 June 1931) is an English astronomer who mapped dwarf galaxies.";

        Answer a = answer("Which English astronomer mapped dwarf galaxies?", sentence, null);

        assertThat(a.text()).isEqualTo("Ada Brightwater");
        assertThat(a.kind()).isEqualTo(Kind.NAMES);
        assertThat(a.span().of(sentence)).isEqualTo("Ada Brightwater");
    }

    @Test
    void aHardWrappedLineOfABookIsNoHeading() {
        String sentence = "“I have been told by a man named Abel Marsh, that he is the\nfriend so long unknown to me.”";

        assertThat(ShortAnswer.headingEnd(sentence)).isZero();
        assertThat(answer("Who is Tom's secret friend?", sentence, null).text()).isEqualTo("Abel Marsh");
        assertThat(ShortAnswer.headingEnd("Harbour Lights (1952 film)\nHarbour Lights is a film."))
                .isEqualTo(27);
    }

    @Test
    void anXIsYSentenceAnswersAQuestionThatDescribesX() {
        String sentence = "Glasswing is a science fiction series of novels for young readers written by Tom Reyes.";

        Answer a =
                answer("What science fiction series for young readers has a set of companion novels?", sentence, null);

        assertThat(a.text()).isEqualTo("Glasswing");
        assertThat(ShortAnswer.subject(ShortAnswer.words("What is Glasswing?"), sentence)).isEmpty(); // the question names it already
    }

    @Test
    void aQuestionThatNamesTheTitleIsNotAnsweredWithIt() {
        String sentence = "Harbour Lights\nHarbour Lights is a 1952 British drama film directed by Colin Marsh.";

        Answer a = answer("Who directed the British drama film Harbour Lights?", sentence, null);

        assertThat(a.text()).isEqualTo("Colin Marsh");
    }

    @Test
    void whatAsksForANameInProseAndGetsTheOneNearTheQuestionsWords() {
        String sentence =
                "As an adult she served as ambassador to Ghana and as Chief of Protocol of the United States.";

        Answer a = answer(
                "What government position did she hold as an adult, after serving as ambassador?", sentence, null);

        assertThat(a.text()).isEqualTo("Ghana");
        assertThat(answer("What position did she serve as, besides ambassador to Ghana?", sentence, null)
                        .text())
                .isEqualTo("Chief of Protocol");
    }

    @Test
    void aNameThatOnlySaysWhichOfTheAskedThingsIsNotTheAnswer() {
        Answer a =
                answer("What did the mill grind?", "The tide mill of Carew ground corn for four hundred years.", null);

        assertThat(a.text())
                .as("the phrase the sentence adds, not the name")
                .isNotEqualTo("Carew")
                .contains("corn");
    }

    @Test
    void whatYearAnswersWithTheYearNearestTheQuestionsWords() {
        String sentence = "Carla Reni (born 3 May 1956) is an Italian physicist who has worked in Spain since 2001.";

        Answer a = answer("Since what year has the physicist worked in Spain?", sentence, null);

        assertThat(a.text()).isEqualTo("2001");
        assertThat(a.span().of(sentence)).isEqualTo("2001");
        assertThat(answer("In what year was Carla Reni born?", sentence, null).text())
                .isEqualTo("1956");
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
                "Where did Magwitch hide?|He hid on the marshes near Cooling all winter.|Cooling",
                "Where did Melanie go on vacation?|We went to the Grand Canyon last summer!|the Grand Canyon",
                "Where is Jon from?|I moved here from Boston years ago.|Boston"
            })
    void whereAnswersWithThePlace(String question, String sentence, String place) {
        Answer a = answer(question, sentence, null);

        assertThat(a.text()).isEqualTo(place);
        assertThat(a.kind()).isEqualTo(Kind.PLACE);
        assertThat(a.span().of(sentence)).isEqualTo(place);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "How many children does Melanie have?|I have three kids and they keep me busy.|three kids",
                "How many times did John go?|He went twice that spring.|twice",
                "How old is Estella?|She was 16 then.|16",
                "How many ships did he count on the last night?|On the last night he counted forty-two ships in the bay.|forty-two ships",
                "How many eggs did she buy?|She bought a dozen eggs at the market.|a dozen eggs",
                "How many sheep were on the hill?|There were two hundred sheep on the hill.|two hundred sheep",
                "How many guests came?|Seventy-five guests came to the wedding.|Seventy-five guests"
            })
    void howManyAnswersWithTheNumberAndWhatItCounts(String question, String sentence, String number) {
        Answer a = answer(question, sentence, null);

        assertThat(a.text()).isEqualTo(number);
        assertThat(a.kind()).isEqualTo(Kind.NUMBER);
    }

    @Test
    void theNumberThatCountsWhatTheQuestionAsksAboutWinsOverAnEarlierOne() {
        String sentence = "In 2022 the crew launched 31 times and rescued 12 people.";

        Answer a = answer("How many people did the crew rescue?", sentence, null);

        assertThat(a.text()).isEqualTo("12 people");
        assertThat(a.span().of(sentence)).isEqualTo("12 people");
        assertThat(answer("How many launches were there?", sentence, null).text())
                .isEqualTo("31 times");
    }

    @Test
    void aYearIsNotACount() {
        Answer a = answer("How many dogs did Maria adopt?", "In 2022 I adopted two dogs from the shelter.", null);

        assertThat(a.text()).isEqualTo("two dogs");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "What activity did John's colleague, Rob, invite him to?|Rob invited me to a beginner's yoga class.|beginner's yoga class",
                "What did Melanie paint recently?|I just finished painting a sunset over the lake!|sunset over the lake",
                "What did Maria adopt last month?|We adopted a shy little beagle from the shelter!|shy little beagle from the shelter"
            })
    void whatAnswersWithThePhraseTheSentenceAddsToTheQuestion(String question, String sentence, String phrase) {
        Answer a = answer(question, sentence, null);

        assertThat(a.text()).isEqualTo(phrase);
        assertThat(a.kind()).isEqualTo(Kind.PHRASE);
        assertThat(a.derived()).isFalse();
        assertThat(a.span().of(sentence)).isEqualTo(phrase);
    }

    @Test
    void aNameIsTheAnswerToAWhatNameQuestionWithoutTheWordsBeforeIt() {
        Answer a = answer("What is the name of Maria's second puppy?", "Meet Shadow, my second puppy!", null);

        assertThat(a.text()).isEqualTo("Shadow");
        assertThat(a.kind()).isEqualTo(Kind.NAMES);
    }

    @Test
    void whyAnswersWithTheReasonClause() {
        String sentence =
                "I chose that agency because of their inclusivity and support for LGBTQ+ folks; it felt right.";

        Answer a = answer("Why did Caroline choose the adoption agency?", sentence, null);

        assertThat(a.text()).isEqualTo("because of their inclusivity and support for LGBTQ+ folks");
        assertThat(a.kind()).isEqualTo(Kind.REASON);
    }

    @Test
    void aSentenceThatOnlyRestatesTheQuestionIsItsOwnAnswer() {
        String sentence = "Did Pip leave?";

        Answer a = answer("Why did Pip leave?", sentence, null);

        assertThat(a.kind()).isEqualTo(Kind.SENTENCE);
        assertThat(a.text()).isEqualTo(sentence);
        assertThat(a.isWholeSentence()).isTrue();
    }

    @Test
    void aTypedQuestionWithoutItsKindInTheSentenceFallsBackToThePhrase() {
        Answer a = answer("Who raised Pip?", "he was brought up by hand, by his sister.", null);

        assertThat(a.kind()).isEqualTo(Kind.PHRASE);
        assertThat(a.text()).isEqualTo("brought up by hand");
    }

    @Test
    void askedForABirthYearTheLifespansFirstDateAnswersNotTheNearestOne() {
        String sentence =
                "Ada Quill (3 June 1865 – 20 January 1936) was queen of Norland from 1910 until her death in 1936.";

        Answer a = answer("In which year was the queen of Norland born?", sentence, null);

        assertThat(a.text()).isEqualTo("1865");
        assertThat(a.span().of(sentence)).isEqualTo("3 June 1865");
    }

    @Test
    void askedForANationalityTheAdjectiveOfNationalityAnswers() {
        String sentence = "Sir Ivo Brandt (7 May 1910 – 6 June 1989) was a Norwegian social anthropologist.";

        Answer a = answer("What nationality were the anthropologists Ivo Brandt and Pia Holm?", sentence, null);

        assertThat(a.text()).isEqualTo("Norwegian");
        assertThat(a.span().of(sentence)).isEqualTo("Norwegian");
    }

    @Test
    void aNumberBeforeAFunctionWordTheQuestionAlsoHoldsIsNotWhatIsCounted() {
        String sentence = "One of the largest service firms, it has offices in more than 70 countries.";

        Answer a = answer(
                "Pia Holm is a critic of Velden and a firm that has offices in how many countries?", sentence, null);

        assertThat(a.text()).isEqualTo("70 countries");
    }
}
