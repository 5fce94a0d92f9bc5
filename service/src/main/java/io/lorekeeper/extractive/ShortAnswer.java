package io.lorekeeper.extractive;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.lucene.analysis.en.EnglishAnalyzer;

import io.lorekeeper.text.Span;
import io.lorekeeper.text.Terms;

/**
 * The pieces of a sentence that could answer a question, each typed by what it is: a date (relative
 * expressions resolved against the date the sentence was said on), a name, a number with what it
 * counts, the subject a definition defines, a run of words the question does not hold, and the whole
 * sentence. Which piece answers is not decided here: {@link SpanRanker} scores them by features
 * whose weights are fitted on evaluation folds, not by rules per kind of question. A kind of piece
 * stays only while leaving it out costs F1 on held-out folds (docs/evaluation.md, "Ablations"):
 * places after a preposition and "because" clauses did not, and went.
 *
 * <p>An answer is a verbatim piece of the sentence ({@code span}, relative to it), or, for a
 * resolved time expression or a list of names, derived from that piece ({@code derived}:
 * "yesterday" said on 8 May 2023 answers "7 May 2023", and the span still points at "yesterday").
 */
final class ShortAnswer {

    enum Kind {
        DATE,
        SESSION_DATE,
        NAMES,
        /** The distinct names of a sentence joined: a list is a different answer from one name (LoCoMo asks for lists, HotpotQA for one). */
        NAME_LIST,
        SUBJECT,
        NUMBER,
        PHRASE,
        SENTENCE,
        LIST,
        YES_NO
    }

    /**
     * @param text    the answer
     * @param span    where in the sentence it comes from
     * @param derived whether {@code text} is computed from the span rather than copied from it
     */
    record Answer(String text, Span span, boolean derived, Kind kind) {

        boolean isWholeSentence() {
            return kind == Kind.SENTENCE;
        }

        Answer shifted(int by) {
            return by == 0 ? this : new Answer(text, new Span(span.start() + by, span.end() + by), derived, kind);
        }
    }

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’&-]*");
    private static final Pattern NAME =
            Pattern.compile("\\b\\p{Lu}[\\p{L}'’-]+(?:\\s+(?:(?:of|de|van|von|the)\\s+)?\\p{Lu}[\\p{L}'’-]+)*");
    /** A number written in words; compounds join them with hyphens or spaces ("forty-two", "two hundred"). */
    private static final String NUMBER_WORD = "(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
            + "thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
            + "seventy|eighty|ninety|hundred|thousand|million|dozen)";
    /** An ordinal, alone or ending a compound ("third", "twenty-first", "3rd"). */
    private static final String ORDINAL = "(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
            + "eleventh|twelfth|(?:thir|four|fif|six|seven|eigh|nine)teenth|(?:twen|thir|for|fif|six|seven|eigh|nine)"
            + "tieth|hundredth|thousandth)";

    private static final Pattern NUMBER = Pattern.compile(
            "\\b(\\d+(?:st|nd|rd|th)|\\d+(?:[.,]\\d+)?%?|a dozen|(?:" + NUMBER_WORD + "(?:-|\\s+))*(?:" + ORDINAL + "|"
                    + NUMBER_WORD + ")|several|once|twice|a couple|a few)\\b(\\s+[\\p{L}-]+)?",
            Pattern.CASE_INSENSITIVE);
    /** "what (kind of)? books", "which cities": the noun the question asks for, when it ends in s. */
    private static final Pattern PLURAL_ASKED = Pattern.compile(
            "^(?:what|which)\\s+(?:(?:kinds?|types?|sorts?) of\\s+)?(?:[\\p{L}-]+\\s+)?([\\p{L}-]+s)\\s+"
                    + "(?:has|have|had|do|does|did|are|were|is|was)\\b");

    private static final Set<String> SINGULAR_IN_S = WordList.load("singular-in-s");
    /** Whatever opens a sentence up to its first "is a / was the": the subject, however long its asides. */
    private static final Pattern LOOSE_COPULA =
            Pattern.compile("^(.{1,200}?)\\s(?:is|was|are|were)\\s+(?:a|an|the|one)\\b");

    private static final Pattern FOUR_DIGIT_YEAR = Pattern.compile("\\b\\d{4}\\b");
    /** A name opening a sentence, then an optional aside ("(born 1952)", ", also known as X,"), then "is a / was the". */
    private static final Pattern COPULAR_SUBJECT = Pattern.compile(
            "^[\"“']?(\\p{Lu}[\\p{L}\\p{N}'’.&-]*(?:\\s+(?:(?:of|the|and|de|van|von|for|in|on|a)\\s+)*"
                    + "[\\p{Lu}\\p{N}][\\p{L}\\p{N}'’.&!-]*)*)[\"”']?\\s*(?:\\([^)]*\\)\\s*)?(?:,[^,]{1,80},\\s*)?(?:is|was|are|were)\\s+(?:a|an|the|one)\\b");

    private static final Set<String> OPENERS = WordList.load("openers");
    private static final Set<String> DEMONYMS = WordList.load("demonyms");
    private static final Pattern BOUNDARY = Pattern.compile("[,;:!?.()\"“”—–]|\\s-\\s");
    /** Words that carry no answer of their own: pronouns, auxiliaries, fillers of speech. */
    private static final Set<String> FILLER = new HashSet<>(WordList.load("filler"));

    private static final Set<String> NOT_NAMES = WordList.load("not-names");

    static {
        EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.forEach(
                w -> FILLER.add(w instanceof char[] chars ? new String(chars) : w.toString()));
    }

    private ShortAnswer() {}

    /**
     * Every piece of the sentence that could answer, in the sentence's order by kind, the whole
     * sentence last. A heading line above the text ("Shirley Temple" over "Shirley Temple Black was
     * ...") is a title: it answers only as the subject its paragraph defines.
     *
     * @param said the date the sentence was said on (a conversation's session date), or null
     */
    static List<Answer> candidates(String question, String sentence, LocalDate said) {
        List<Answer> out = new ArrayList<>();
        int body = headingEnd(sentence);
        if (body > 0) {
            titleSubject(question, sentence.substring(0, body), sentence.substring(body))
                    .ifPresent(out::add);
        }
        String text = sentence.substring(body);
        Set<String> asked = words(question);
        List<Answer> found = new ArrayList<>(times(question, text, said));
        subject(asked, text).ifPresent(found::add);
        found.addAll(names(asked, text));
        found.addAll(numbers(asked, text));
        found.addAll(phrases(asked, text));
        List<Answer> dates = found.stream().filter(a -> a.kind() == Kind.DATE).toList();
        // a number or run of words inside a date ("3 March" of "3 March, 1861") is a fragment of it, not an answer
        found.stream()
                .filter(a -> a.kind() == Kind.DATE
                        || dates.stream().noneMatch(d -> d.span().contains(a.span())))
                .forEach(a -> out.add(a.shifted(body)));
        out.add(new Answer(sentence, new Span(0, sentence.length()), false, Kind.SENTENCE));
        return out;
    }

    /**
     * The time expressions of the sentence, resolved against the day it was said on; in a
     * conversation a sentence without one may speak of its own day ("I just signed up"), so that day
     * is a candidate too. "What year" is answered by the year of the date found.
     */
    static List<Answer> times(String question, String sentence, LocalDate said) {
        List<Answer> out = new ArrayList<>();
        for (TimeExpressions.Found f : TimeExpressions.in(sentence, said)) {
            Answer date = new Answer(
                    f.resolved(), f.span(), f.derived() || !f.resolved().equals(f.written()), Kind.DATE);
            out.add(AnswerType.asksForYear(question) ? year(date, sentence) : date);
        }
        if (out.isEmpty() && said != null) {
            out.add(new Answer(TimeExpressions.format(said), new Span(0, sentence.length()), true, Kind.SESSION_DATE));
        }
        return out;
    }

    /** The year of the date found ("April 23, 1928" answers "1928"), still pointing at where it was written. */
    private static Answer year(Answer date, String sentence) {
        Matcher y = FOUR_DIGIT_YEAR.matcher(date.text());
        if (!y.find()) {
            return date;
        }
        return new Answer(y.group(), date.span(), !date.span().of(sentence).equals(y.group()), date.kind());
    }

    /**
     * "X is a ...": in a sentence that opens with a name followed by "is/was a(n)/the" (an aside in
     * brackets or between commas allowed), the name, when the question does not contain it and the
     * rest of the sentence shares words with the question. The shape of a definition, and of an
     * encyclopedia's first sentence.
     */
    static Optional<Answer> subject(Set<String> asked, String sentence) {
        Matcher m = COPULAR_SUBJECT.matcher(sentence);
        if (!m.find()) {
            return Optional.empty();
        }
        List<String> subjectWords = contentWords(m.group(1));
        if (subjectWords.isEmpty()
                || subjectWords.stream().anyMatch(w -> asked.contains(stem(w)))
                || sharedStems(sentence.substring(m.end(1)), asked) < 2) {
            return Optional.empty();
        }
        return Optional.of(new Answer(m.group(1), new Span(m.start(1), m.end(1)), false, Kind.SUBJECT));
    }

    private static long sharedStems(String text, Set<String> asked) {
        return contentWords(text).stream()
                .map(ShortAnswer::stem)
                .distinct()
                .filter(asked::contains)
                .count();
    }

    /**
     * The capitalised names the question does not already contain, each alone, and all of them
     * joined when there are several (for a question after several people).
     */
    static List<Answer> names(Set<String> asked, String sentence) {
        List<Answer> names = new ArrayList<>();
        Matcher m = NAME.matcher(sentence);
        while (m.find()) {
            List<String> parts = List.of(m.group().split("\\s+"));
            if (parts.stream()
                    .allMatch(
                            p -> NOT_NAMES.contains(p) || asked.contains(stem(p)) || isDemonym(p) || isCommonWord(p))) {
                continue;
            }
            int start = m.start();
            // "Then Rob" / "Thanks Rob": a leading word that is not part of the name is left out
            while (parts.size() > 1 && (NOT_NAMES.contains(parts.getFirst()) || isCommonWord(parts.getFirst()))) {
                start = sentence.indexOf(parts.get(1), start + parts.getFirst().length());
                parts = parts.subList(1, parts.size());
            }
            Span span = new Span(start, m.end());
            names.add(new Answer(span.of(sentence), span, false, Kind.NAMES));
        }
        List<String> distinct = names.stream().map(Answer::text).distinct().toList();
        if (distinct.size() > 1) {
            Span all = new Span(
                    names.getFirst().span().start(), names.getLast().span().end());
            names.add(new Answer(String.join(", ", distinct), all, true, Kind.NAME_LIST));
        }
        return names;
    }

    /**
     * The numbers of the sentence, in digits or words ("forty-two", "a dozen", "third"), each with
     * the word it counts when that word carries meaning ("12 people").
     */
    static List<Answer> numbers(Set<String> asked, String sentence) {
        List<Answer> out = new ArrayList<>();
        Matcher m = NUMBER.matcher(sentence);
        while (m.find()) {
            int end = m.end(1);
            String counted = m.group(2) == null ? null : m.group(2).strip();
            if (counted != null && !FILLER.contains(counted.toLowerCase(Locale.ROOT))) {
                end = m.end(2);
            }
            out.add(new Answer(sentence.substring(m.start(1), end), new Span(m.start(1), end), false, Kind.NUMBER));
        }
        return out;
    }

    /**
     * The clause-bounded runs of words that are not the question's own, trimmed of pronouns and
     * function words at both ends: what the sentence says beyond the question.
     */
    static List<Answer> phrases(Set<String> asked, String sentence) {
        List<Token> tokens = new ArrayList<>();
        Matcher w = WORD.matcher(sentence);
        while (w.find()) {
            String lower = w.group().toLowerCase(Locale.ROOT);
            boolean fromQuestion = asked.contains(stem(w.group()));
            boolean filler = FILLER.contains(lower) || FILLER.contains(lower.replaceFirst("['’]s$", ""));
            tokens.add(new Token(w.start(), w.end(), fromQuestion, filler));
        }
        List<Answer> out = new ArrayList<>();
        int i = 0;
        while (i < tokens.size()) {
            if (tokens.get(i).fromQuestion()) {
                i++;
                continue;
            }
            int j = i;
            while (j + 1 < tokens.size()
                    && !tokens.get(j + 1).fromQuestion()
                    && !boundaryBetween(sentence, tokens.get(j), tokens.get(j + 1))) {
                j++;
            }
            int first = i;
            int last = j;
            while (first <= last && tokens.get(first).filler()) {
                first++;
            }
            while (last >= first && tokens.get(last).filler()) {
                last--;
            }
            if (first <= last) {
                Span span = new Span(tokens.get(first).start(), tokens.get(last).end());
                out.add(new Answer(span.of(sentence), span, false, Kind.PHRASE));
            }
            i = j + 1;
        }
        return out;
    }

    private record Token(int start, int end, boolean fromQuestion, boolean filler) {}

    /** Where the question's own words (not fillers) stand in the sentence. */
    static List<Span> questionWordSpans(String sentence, Set<String> asked) {
        List<Span> spans = new ArrayList<>();
        Matcher w = WORD.matcher(sentence);
        while (w.find()) {
            String lower = w.group().toLowerCase(Locale.ROOT);
            if (!FILLER.contains(lower) && asked.contains(stem(w.group()))) {
                spans.add(new Span(w.start(), w.end()));
            }
        }
        return spans;
    }

    /**
     * Where a sentence's text starts after a heading line: a first line without closing punctuation
     * followed by a line break, as titles stand above their paragraph. 0 when there is none. Remembered:
     * the second hop asks it of every candidate sentence for every name it follows.
     */
    static int headingEnd(String sentence) {
        return HEADING_ENDS.of(sentence);
    }

    private static final Remembered<Integer> HEADING_ENDS = new Remembered<>(20_000, ShortAnswer::findHeadingEnd);

    private static int findHeadingEnd(String sentence) {
        int start = titleLineEnd(sentence);
        if (start == 0) {
            return 0;
        }
        String first = sentence.substring(0, sentence.indexOf('\n')).strip();
        // a title is taken up by the text under it ("Kiss and Tell (1945 film)" / "Kiss and Tell is a 1945 film");
        // a hard-wrapped line of a book is simply continued by the next one
        String opening = sentence.substring(start, Math.min(sentence.length(), start + 200))
                .toLowerCase(Locale.ROOT);
        Set<String> openingWords = new HashSet<>();
        Matcher o = WORD.matcher(opening);
        while (o.find()) {
            openingWords.add(o.group());
        }
        boolean takenUp = contentWords(first).stream()
                .map(w -> w.toLowerCase(Locale.ROOT))
                .anyMatch(openingWords::contains);
        return takenUp ? start : 0;
    }

    /**
     * Where the text starts under a short first line without closing punctuation (a title, or a
     * hard-wrapped line of a book: {@link #headingEnd} tells them apart); 0 when there is none.
     */
    private static int titleLineEnd(String sentence) {
        int newline = sentence.indexOf('\n');
        if (newline <= 0 || newline > 120) {
            return 0;
        }
        String first = sentence.substring(0, newline).strip();
        if (first.isEmpty() || ".!?:;,".indexOf(first.charAt(first.length() - 1)) >= 0) {
            return 0;
        }
        int start = newline;
        while (start < sentence.length() && Character.isWhitespace(sentence.charAt(start))) {
            start++;
        }
        return start >= sentence.length() ? 0 : start;
    }

    /**
     * A paragraph under a title that opens by defining its subject ("Bob Seger" above "Robert Clark
     * Seger (born May 6, 1945) is an American singer-songwriter ...") answers with the title, the
     * name the text goes by, when the question describes that subject without naming it.
     */
    static Optional<Answer> titleSubject(String question, String heading, String body) {
        String title = heading.strip().replaceFirst("\\s*\\([^)]*\\)$", "");
        Matcher m = LOOSE_COPULA.matcher(body);
        if (title.isEmpty() || !m.find()) {
            return Optional.empty();
        }
        Set<String> asked = words(question);
        List<String> titleWords = contentWords(title);
        String subjectPart = m.group(1);
        if (titleWords.isEmpty()
                || titleWords.stream().anyMatch(w -> asked.contains(stem(w)))
                || titleWords.stream().noneMatch(subjectPart::contains)) {
            return Optional.empty();
        }
        long shared = contentWords(body.substring(m.end(1))).stream()
                .map(ShortAnswer::stem)
                .distinct()
                .filter(asked::contains)
                .count();
        if (shared < 2) {
            return Optional.empty();
        }
        int start = heading.indexOf(title);
        return Optional.of(new Answer(title, new Span(start, start + title.length()), false, Kind.NAMES));
    }

    /**
     * Whether the question asks for several things: "who have...", "what activities has...", "both",
     * a plural noun after "what/which" ("what books", "which cities").
     */
    static boolean asksForSeveral(String question) {
        String q = question.strip().toLowerCase(Locale.ROOT);
        if (q.matches("^who (are|were|have|has been)\\b.*") || q.matches(".*\\b(both|all|ever|some)\\b.*")) {
            return q.startsWith("who") || q.startsWith("what") || q.startsWith("which");
        }
        Matcher m = PLURAL_ASKED.matcher(q);
        return m.find() && !m.group(1).endsWith("ss") && !SINGULAR_IN_S.contains(m.group(1));
    }

    static List<String> contentWords(String text) {
        List<String> out = new ArrayList<>();
        Matcher w = WORD.matcher(text);
        while (w.find()) {
            if (!FILLER.contains(w.group().toLowerCase(Locale.ROOT))) {
                out.add(w.group());
            }
        }
        return out;
    }

    /** A capitalised word that is an ordinary word opening a sentence ("Even", "While", "I'm"), not a name. */
    private static boolean isCommonWord(String word) {
        String lower = word.toLowerCase(Locale.ROOT);
        return FILLER.contains(lower) || OPENERS.contains(lower);
    }

    /** "American", "Bangladeshi", "French": adjectives of nationality are capitalised but name no one. */
    static boolean isDemonym(String word) {
        String lower = word.toLowerCase(Locale.ROOT);
        int hyphen = lower.indexOf('-'); // "Bangladeshi-born", "Anglo-American"
        return DEMONYMS.contains(lower)
                || hyphen > 0
                        && (DEMONYMS.contains(lower.substring(0, hyphen))
                                || DEMONYMS.contains(lower.substring(hyphen + 1)));
    }

    private static boolean boundaryBetween(String sentence, Token a, Token b) {
        return BOUNDARY.matcher(sentence.substring(a.end(), b.start())).find();
    }

    /** The question's words as stems (question words themselves included, so they never count as new). */
    static Set<String> words(String question) {
        Set<String> stems = new HashSet<>();
        Matcher m = WORD.matcher(question);
        while (m.find()) {
            stems.add(stem(m.group()));
        }
        return stems;
    }

    /**
     * The word's stem. Remembered, because every piece of every offered sentence is compared with the
     * question word by word.
     */
    static String stem(String word) {
        return STEMS.of(word);
    }

    private static final Remembered<String> STEMS = new Remembered<>(100_000, w -> {
        String lower = w.toLowerCase(Locale.ROOT).replaceFirst("['’]s$", "");
        List<String> terms = Terms.of(lower);
        return terms.isEmpty() ? lower : terms.getFirst();
    });
}
