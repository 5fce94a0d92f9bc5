package io.lorekeeper.auto;

import java.util.regex.Pattern;

/**
 * What the wording of a question says about the reasoning it needs, from surface cues only (no
 * model call): a time to place, several facts to join, or a view over the whole text.
 *
 * @param multipleChoice the question comes with choices
 * @param temporal       asks when, how long, before or after
 * @param multiHop       joins facts: both, compare, in common, why, how many, or names two or more people or things
 * @param global         asks about the text as a whole: themes, how someone changes, motives, the overall course
 */
record QuestionForm(boolean multipleChoice, boolean temporal, boolean multiHop, boolean global) {

    private static final Pattern TEMPORAL = Pattern.compile(
            "(?i)\\b(when|what (year|month|day|date|time)|which (year|month|day)|how long|before|after|since|until|"
                    + "first time|last time|earlier|later|ago)\\b");
    private static final Pattern MULTI_HOP = Pattern.compile(
            "(?i)\\b(both|also|compare[ds]?|difference|in common|same|why|how many|relationship|connect(ed|ion)?|between)\\b");
    private static final Pattern GLOBAL = Pattern.compile(
            "(?i)\\b(theme|themes|overall|throughout|whole (story|book|text)|main (character|idea|point|conflict)s?|"
                    + "motive|motivation|motivates|change[sd]? over|develop(s|ed|ment)|arc|in the end|ultimately)\\b");
    /** A capitalised word that does not start the question: a name, roughly. */
    private static final Pattern NAME = Pattern.compile("(?<=[a-z,;:] )[A-Z][a-z]+");

    static QuestionForm of(String question, boolean multipleChoice) {
        String q = question == null ? "" : question;
        long names = NAME.matcher(q).results().map(m -> m.group()).distinct().count();
        return new QuestionForm(
                multipleChoice,
                TEMPORAL.matcher(q).find(),
                MULTI_HOP.matcher(q).find() || names >= 2,
                GLOBAL.matcher(q).find());
    }
}
