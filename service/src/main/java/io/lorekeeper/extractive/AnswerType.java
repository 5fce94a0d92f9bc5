package io.lorekeeper.extractive;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The kind of answer a question asks for, read from its wording, and whether a sentence contains
 * something of that kind. A sentence that repeats the question's words but holds no name, date or
 * number is rarely the answer to a who, when or how-many question.
 */
enum AnswerType {
    PERSON,
    TIME,
    QUANTITY,
    PLACE,
    OTHER;

    private static final Pattern MONTHS = Pattern.compile(
            "\\b(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\\b");
    private static final Pattern TIME_WORDS = Pattern.compile(
            "\\b(\\d{4}|\\d{1,2}(st|nd|rd|th)?|yesterday|today|tomorrow|tonight|ago|last|next|week|weekend|month|year|morning|evening|night|afternoon|"
                    + "monday|tuesday|wednesday|thursday|friday|saturday|sunday|spring|summer|autumn|fall|winter|o'clock|since|until|before|after|during)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern NUMBER = Pattern.compile(
            "\\b(\\d+([.,]\\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|dozen|several|few|many|once|twice)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern NAME = Pattern.compile("\\b\\p{Lu}\\p{Ll}+");
    private static final Pattern PLACE_PHRASE =
            Pattern.compile("\\b(in|at|to|from|near|into|across)\\s+(the\\s+)?\\p{Lu}\\p{Ll}+");
    private static final Set<String> NOT_NAMES = Set.of(
            "I", "The", "A", "An", "He", "She", "It", "They", "We", "You", "But", "And", "When", "What", "Then",
            "There", "This", "That", "Yes", "No", "Oh", "Well", "If", "So", "As", "My", "His", "Her", "Our", "Their",
            "Your", "In", "On", "At", "Of", "For", "With", "Not", "Now", "How", "Mr", "Mrs", "Ms", "Miss", "Sir", "Dr",
            "Madam", "Mister", "Lady", "Lord");

    /** Place nouns a "what/which ..." question can ask for ("in what New York city", "which county"). */
    private static final String PLACE_NOUNS =
            "place|city|country|town|location|county|state|region|province|island|village|"
                    + "continent|district|borough|neighbou?rhood|capital|places|cities|countries|towns";

    static AnswerType of(String question) {
        String q = question.strip().toLowerCase(Locale.ROOT);
        // "who" opens the question or closes it ("formed by who?"); inside, it is usually a relative pronoun
        if (q.matches("^(who|whom|whose)\\b.*")
                || q.matches(".*\\b(who|whom)\\s*\\??$")
                || q.matches(".*\\b(which|what) (person|man|woman|character|name)\\b.*")) {
            return PERSON;
        }
        if (q.matches("^when\\b.*")
                || q.matches(".*\\bwhen\\s*\\??$")
                || q.matches(".*\\b(what|which) (year|date|day|month|time|timeframe|period|decade|century)\\b.*")
                || q.matches(".*\\bhow long\\b.*")) {
            return TIME;
        }
        if (q.matches(".*\\bhow (many|much|old|often|far)\\b.*")
                || q.matches(".*\\b(what|which) (number|amount|age|population)\\b.*")) {
            return QUANTITY;
        }
        if (q.matches("^where\\b.*") || q.matches(".*\\b(what|which)(\\s+\\S+){0,2}\\s+(" + PLACE_NOUNS + ")\\b.*")) {
            return PLACE;
        }
        return OTHER;
    }

    /** Whether the question asks for a year ("in what year", "since which year"): a full date answers too much. */
    static boolean asksForYear(String question) {
        return question.toLowerCase(Locale.ROOT).matches(".*\\b(what|which) year\\b.*");
    }

    /** Whether the sentence holds an answer of this type that the question does not already contain. */
    boolean foundIn(String sentence, String question) {
        return switch (this) {
            case PERSON -> hasNewName(sentence, question);
            // asked when someone was born, a sentence with other dates but no birth date holds no answer
            case TIME ->
                TimeExpressions.asksForBirth(question)
                        ? TimeExpressions.birth(sentence).isPresent()
                        : MONTHS.matcher(sentence).find()
                                || TIME_WORDS.matcher(sentence).find();
            case QUANTITY -> NUMBER.matcher(sentence).find();
            case PLACE -> PLACE_PHRASE.matcher(sentence).find();
            case OTHER -> false;
        };
    }

    boolean isKnown() {
        return this != OTHER;
    }

    private static boolean isFirstWord(String sentence, int at) {
        for (int i = 0; i < at; i++) {
            if (Character.isLetterOrDigit(sentence.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    static boolean hasNewName(String sentence, String question) {
        Set<String> asked = new java.util.HashSet<>(
                java.util.Arrays.asList(question.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")));
        var m = NAME.matcher(sentence);
        while (m.find()) {
            String word = m.group();
            if (isFirstWord(sentence, m.start()) || NOT_NAMES.contains(word)) {
                continue;
            }
            if (!asked.contains(word.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }
}
