package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TimeExpressionsTest {

    /** A Thursday. */
    private static final LocalDate SAID = LocalDate.of(2023, 6, 8);

    @Test
    void readsTheSessionDateFromItsHeaderLine() {
        assertThat(TimeExpressions.sessionDate("[Session 3, 7:55 pm on 9 June, 2023]"))
                .contains(LocalDate.of(2023, 6, 9));
        assertThat(TimeExpressions.sessionDate("[Session 1, 1:56 pm on 8 May, 2023]"))
                .contains(LocalDate.of(2023, 5, 8));
        assertThat(TimeExpressions.sessionDate("Chapter 3")).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I went to a support group yesterday and loved it.|yesterday|7 June 2023",
                "We're going camping tomorrow!|tomorrow|9 June 2023",
                "Last week I ran a charity race.|Last week|the week before 8 June 2023",
                "My family went on a roadtrip last weekend.|last weekend|the weekend before 8 June 2023",
                "We had a picnic last Friday.|last Friday|the Friday before 8 June 2023",
                "I signed up for pottery last month.|last month|May 2023",
                "I read that book last year.|last year|2022",
                "Next month we open the studio.|Next month|July 2023",
                "We adopted him three days ago.|three days ago|5 June 2023",
                "I started two weeks ago.|two weeks ago|2 weeks before 8 June 2023",
                "The flood was a few weeks ago.|a few weeks ago|a few weeks before 8 June 2023",
                "We met two years ago at school.|two years ago|2021",
                "We went to the beach last summer.|last summer|summer 2022",
                "Camping is planned in July this time.|July|July 2023",
                "I gave a talk on Thursday.|on Thursday|8 June 2023",
                "I gave a talk on Monday.|on Monday|the Monday before 8 June 2023"
            })
    void resolvesRelativeExpressionsAgainstTheDateTheyWereSaidOn(String sentence, String written, String resolved) {
        TimeExpressions.Found found = TimeExpressions.first(sentence, SAID).orElseThrow();

        assertThat(found.written()).isEqualTo(written);
        assertThat(found.span().of(sentence)).isEqualTo(written);
        assertThat(found.resolved()).isEqualTo(resolved);
        assertThat(found.derived()).isTrue();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "The store opened on 20 June, 2023 at noon.|20 June, 2023|20 June 2023",
                "It opened on June 20th, 2023.|June 20th, 2023|20 June 2023",
                "We moved in March 2021.|March 2021|March 2021",
                "She has lived there since 2016.|2016|2016"
            })
    void keepsExplicitDatesAsWrittenInOneFormat(String sentence, String written, String resolved) {
        TimeExpressions.Found found = TimeExpressions.first(sentence, SAID).orElseThrow();

        assertThat(found.written()).isEqualTo(written);
        assertThat(found.resolved()).isEqualTo(resolved);
        assertThat(found.derived()).isFalse();
    }

    @Test
    void anExplicitDateIsFoundWithoutASessionDateButARelativeOneIsNot() {
        assertThat(TimeExpressions.first("It happened on 3 March, 2020.", null))
                .map(TimeExpressions.Found::resolved)
                .contains("3 March 2020");
        assertThat(TimeExpressions.first("It happened yesterday.", null)).isEmpty();
        assertThat(TimeExpressions.in("No time here at all.", SAID)).isEmpty();
    }

    @Test
    void listsEveryExpressionInTextOrderWithoutOverlaps() {
        String sentence = "Yesterday I booked the trip for next month, after the talk on 2 June, 2023.";

        assertThat(TimeExpressions.in(sentence, SAID))
                .extracting(TimeExpressions.Found::resolved)
                .containsExactly("7 June 2023", "July 2023", "2 June 2023");
    }

    @Test
    void anImpossibleDateIsNotADate() {
        assertThat(TimeExpressions.first("on 31 February, 2023", SAID))
                .map(TimeExpressions.Found::resolved)
                .contains("February 2023");
    }

    @Test
    void aBareYearCountsInProseButNotInAConversation() {
        String text = "He managed the club between 1903–1912, scoring 1,250 goals for $1999.";

        assertThat(TimeExpressions.in(text, null))
                .extracting(TimeExpressions.Found::written)
                .containsExactly("1903", "1912");
        assertThat(TimeExpressions.in(text, java.time.LocalDate.of(2023, 5, 8))).isEmpty();
    }

    @Test
    void aBirthDateFollowsBornOrOpensABracketedLifespan() {
        assertThat(TimeExpressions.birth("Ada Quill (3 June 1865 – 20 January 1936) was queen of Norland."))
                .map(TimeExpressions.Found::resolved)
                .contains("3 June 1865");
        assertThat(TimeExpressions.birth("Tom Reed (born April 1, 1949) is a lawyer who joined the firm in 1980."))
                .map(TimeExpressions.Found::written)
                .contains("April 1, 1949");
        assertThat(TimeExpressions.birth("Pia Holm was born in Velden, Tarn, in 1971 and moved away in 1990."))
                .map(TimeExpressions.Found::written)
                .contains("1971");
        assertThat(TimeExpressions.birth("In 1995 the novel won the Harrow Prize."))
                .isEmpty();
        assertThat(TimeExpressions.birth("1964) is a lobbyist who worked on the 2016 campaign."))
                .isEmpty();
    }

    @Test
    void birthIsAskedByBornOrBirthButNotByBirthday() {
        assertThat(TimeExpressions.asksForBirth("In which year was the playwright born?"))
                .isTrue();
        assertThat(TimeExpressions.asksForBirth("What is the date of birth of Ada Quill?"))
                .isTrue();
        assertThat(TimeExpressions.asksForBirth("When is Ada's birthday party?"))
                .isFalse();
    }
}
