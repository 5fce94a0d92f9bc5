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
 * The part of a supporting sentence that answers the question, by the kind of answer asked for:
 * a date for "when" (relative expressions resolved against the date the sentence was said on),
 * names for "who", a place for "where", a number for "how many", and otherwise the phrase that the
 * sentence adds to the question's own words. Falls back to the whole sentence when nothing of the
 * kind is there, so an answer is never emptier than its evidence.
 *
 * <p>The answer is a verbatim piece of the sentence ({@code span}, relative to it), or, for a
 * resolved time expression, derived from that piece ({@code derived}: "yesterday" said on 8 May
 * 2023 answers "7 May 2023", and the span still points at "yesterday").
 */
final class ShortAnswer {

    enum Kind {
        DATE,
        SESSION_DATE,
        NAMES,
        PLACE,
        NUMBER,
        PHRASE,
        REASON,
        SENTENCE,
        LIST,
        YES_NO,
        CHOICE
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
    }

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’&-]*");
    private static final Pattern NAME =
            Pattern.compile("\\b\\p{Lu}[\\p{L}'’-]+(?:\\s+(?:(?:of|de|van|von|the)\\s+)?\\p{Lu}[\\p{L}'’-]+)*");
    private static final Pattern PLACE =
            Pattern.compile("\\b(?:in|at|to|from|near|into|across|visited|around)\\s+((?:the\\s+)?\\p{Lu}[\\p{L}'’-]+"
                    + "(?:\\s+(?:of\\s+)?\\p{Lu}[\\p{L}'’-]+)*)");
    /** A number written in words; compounds join them with hyphens or spaces ("forty-two", "two hundred"). */
    private static final String NUMBER_WORD = "(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
            + "thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
            + "seventy|eighty|ninety|hundred|thousand|million|dozen)";

    private static final Pattern NUMBER = Pattern.compile(
            "\\b(\\d+(?:[.,]\\d+)?%?|a dozen|" + NUMBER_WORD + "(?:(?:-|\\s+)" + NUMBER_WORD + ")*"
                    + "|several|once|twice|a couple|a few)\\b(\\s+[\\p{L}-]+)?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern REASON = Pattern.compile(
            "\\b(because|since|so that|as a way to|in order to|due to|thanks to)\\b\\s*", Pattern.CASE_INSENSITIVE);
    /** "what (kind of)? books", "which cities": the noun the question asks for, when it ends in s. */
    private static final Pattern PLURAL_ASKED = Pattern.compile(
            "^(?:what|which)\\s+(?:(?:kinds?|types?|sorts?) of\\s+)?(?:[\\p{L}-]+\\s+)?([\\p{L}-]+s)\\s+"
                    + "(?:has|have|had|do|does|did|are|were|is|was)\\b");

    private static final Set<String> SINGULAR_IN_S = Set.of(
            "is",
            "was",
            "has",
            "does",
            "this",
            "news",
            "series",
            "species",
            "status",
            "bus",
            "class",
            "business",
            "focus",
            "process",
            "success",
            "campus",
            "genius",
            "virus",
            "lens",
            "gas",
            "christmas",
            "always");
    /** Whatever opens a sentence up to its first "is a / was the": the subject, however long its asides. */
    private static final Pattern LOOSE_COPULA =
            Pattern.compile("^(.{1,200}?)\\s(?:is|was|are|were)\\s+(?:a|an|the|one)\\b");

    private static final Pattern FOUR_DIGIT_YEAR = Pattern.compile("\\b\\d{4}\\b");
    /** A name opening a sentence, then an optional aside ("(born 1952)", ", also known as X,"), then "is a / was the". */
    private static final Pattern COPULAR_SUBJECT = Pattern.compile(
            "^[\"“']?(\\p{Lu}[\\p{L}\\p{N}'’.&-]*(?:\\s+(?:(?:of|the|and|de|van|von|for|in|on|a)\\s+)*"
                    + "[\\p{Lu}\\p{N}][\\p{L}\\p{N}'’.&!-]*)*)[\"”']?\\s*(?:\\([^)]*\\)\\s*)?(?:,[^,]{1,80},\\s*)?(?:is|was|are|were)\\s+(?:a|an|the|one)\\b");

    private static final Set<String> OPENERS = Set.of(
            "while",
            "even",
            "after",
            "before",
            "since",
            "during",
            "once",
            "although",
            "though",
            "because",
            "besides",
            "luckily",
            "unfortunately",
            "honestly",
            "plus",
            "yep",
            "nope",
            "okay",
            "ok",
            "sounds",
            "seeing",
            "being",
            "having",
            "playing",
            "taking",
            "making",
            "working",
            "speaking",
            "everyone",
            "someone",
            "nothing");
    private static final Set<String> DEMONYMS = Set.of(
            "american",
            "british",
            "english",
            "scottish",
            "welsh",
            "irish",
            "french",
            "german",
            "italian",
            "spanish",
            "portuguese",
            "dutch",
            "belgian",
            "swiss",
            "austrian",
            "swedish",
            "norwegian",
            "danish",
            "finnish",
            "polish",
            "russian",
            "soviet",
            "ukrainian",
            "greek",
            "turkish",
            "canadian",
            "mexican",
            "brazilian",
            "argentine",
            "argentinian",
            "chilean",
            "cuban",
            "australian",
            "japanese",
            "chinese",
            "korean",
            "indian",
            "pakistani",
            "bangladeshi",
            "israeli",
            "egyptian",
            "african",
            "european",
            "asian",
            "arab",
            "persian",
            "iranian",
            "filipino",
            "thai",
            "vietnamese",
            "indonesian",
            "nigerian",
            "roman",
            "jewish",
            "christian",
            "catholic",
            "muslim",
            "hindu",
            "buddhist");
    private static final Pattern BOUNDARY = Pattern.compile("[,;:!?.()\"“”—–]|\\s-\\s");
    /** Words that carry no answer of their own: pronouns, auxiliaries, fillers of speech. */
    private static final Set<String> FILLER = new HashSet<>(List.of(
            "i",
            "me",
            "my",
            "mine",
            "myself",
            "you",
            "your",
            "yours",
            "we",
            "us",
            "our",
            "ours",
            "he",
            "him",
            "his",
            "she",
            "her",
            "hers",
            "they",
            "them",
            "their",
            "theirs",
            "it",
            "its",
            "this",
            "that",
            "these",
            "those",
            "is",
            "am",
            "are",
            "was",
            "were",
            "be",
            "been",
            "being",
            "have",
            "has",
            "had",
            "do",
            "does",
            "did",
            "so",
            "just",
            "really",
            "very",
            "too",
            "also",
            "oh",
            "yeah",
            "yes",
            "wow",
            "hey",
            "well",
            "like",
            "got",
            "get",
            "gonna",
            "i'm",
            "i've",
            "i'd",
            "it's",
            "that's",
            "what's",
            "we're",
            "you're",
            "i’m",
            "it’s",
            "can",
            "could",
            "would",
            "will",
            "should",
            "might",
            "some",
            "lot",
            "lots",
            "thing",
            "things",
            "stuff",
            "something",
            "actually",
            "totally",
            "definitely",
            "recently",
            "now",
            "then",
            "there",
            "here",
            "what",
            "which",
            "who",
            "when",
            "where",
            "how",
            "why",
            "all",
            "thanks",
            "thank",
            "great",
            "awesome",
            "amazing",
            "cool",
            "nice",
            "glad",
            "happy",
            "love",
            "loved",
            "one",
            "other",
            "about",
            "sounds",
            "sound",
            "any",
            "anything",
            "everything",
            "looking",
            "try",
            "trying",
            "getting",
            "going",
            "know",
            "think",
            "guess",
            "mean",
            "means",
            "sure",
            "kind",
            "sort",
            "way",
            "pretty",
            "super",
            "last",
            "ya",
            "yep",
            "wow",
            "haha",
            "remember",
            "felt",
            "feel",
            "feels",
            "made",
            "make",
            "makes",
            "said",
            "say",
            "says",
            "tell",
            "told",
            "see",
            "saw"));

    private static final Set<String> NOT_NAMES = Set.of(
            "I",
            "The",
            "A",
            "An",
            "He",
            "She",
            "It",
            "They",
            "We",
            "You",
            "But",
            "And",
            "When",
            "What",
            "Then",
            "There",
            "This",
            "That",
            "Yes",
            "No",
            "Oh",
            "Well",
            "If",
            "So",
            "As",
            "My",
            "His",
            "Her",
            "Our",
            "Their",
            "Your",
            "In",
            "On",
            "At",
            "Of",
            "For",
            "With",
            "Not",
            "Now",
            "How",
            "Hey",
            "Hi",
            "Wow",
            "Thanks",
            "Mr",
            "Mrs",
            "Ms",
            "Miss",
            "Sir",
            "Dr",
            "Madam",
            "Lady",
            "Lord",
            "Chapter",
            "Session",
            "Yeah",
            "Sure",
            "Great",
            "Congrats",
            "Awesome",
            "Cool",
            "Nice",
            "Sounds",
            "Monday",
            "Tuesday",
            "Wednesday",
            "Thursday",
            "Friday",
            "Saturday",
            "Sunday",
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
            "Yesterday",
            "Today",
            "Tomorrow",
            "Tonight",
            "Last",
            "Next",
            "Meet",
            "Thank",
            "Good",
            "Glad",
            "Sorry",
            "Hope",
            "Let",
            "Just",
            "Also",
            "Maybe",
            "Really",
            "Definitely",
            "Totally",
            "Haha",
            "Lol",
            "Anyway",
            "Speaking",
            "Absolutely");

    static {
        EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.forEach(
                w -> FILLER.add(w instanceof char[] chars ? new String(chars) : w.toString()));
    }

    private ShortAnswer() {}

    /**
     * @param said the date the sentence was said on (a conversation's session date), or null
     */
    static Answer of(String question, AnswerType type, String sentence, LocalDate said) {
        int body = headingEnd(sentence);
        if (body == 0) {
            return ofBody(question, type, sentence, said);
        }
        if (type == AnswerType.PERSON || type == AnswerType.OTHER) {
            Optional<Answer> titled = titleSubject(question, sentence.substring(0, body), sentence.substring(body));
            if (titled.isPresent()) {
                return titled.get();
            }
        }
        // a heading line ("Shirley Temple" above "Shirley Temple Black was ...") is a title, not part of what the
        // sentence says
        Answer inBody = ofBody(question, type, sentence.substring(body), said);
        Span shifted = new Span(inBody.span().start() + body, inBody.span().end() + body);
        return new Answer(
                inBody.text(),
                inBody.kind() == Kind.SENTENCE ? new Span(0, sentence.length()) : shifted,
                inBody.derived(),
                inBody.kind());
    }

    private static Answer ofBody(String question, AnswerType type, String sentence, LocalDate said) {
        Optional<Answer> typed = switch (type) {
            case TIME ->
                (said == null ? nearestTime(question, sentence) : time(sentence, said))
                        .map(a -> AnswerType.asksForYear(question) ? year(a, sentence) : a);
            case PERSON -> subject(question, sentence).or(() -> names(question, sentence));
            case PLACE -> place(question, sentence);
            case QUANTITY -> number(question, sentence);
            case OTHER ->
                asksNationality(question)
                        ? nationality(sentence)
                        : asksWhat(question)
                                ? subject(question, sentence).or(() -> namedThing(question, sentence))
                                : Optional.empty();
        };
        if (typed.isPresent()) {
            return typed.get();
        }
        if (question.strip().toLowerCase(Locale.ROOT).startsWith("why")) {
            Optional<Answer> reason = reason(sentence);
            if (reason.isPresent()) {
                return reason.get();
            }
        }
        return phrase(question, sentence)
                .orElseGet(() -> new Answer(sentence, new Span(0, sentence.length()), false, Kind.SENTENCE));
    }

    /**
     * Where a sentence's text starts after a heading line: a first line without closing punctuation
     * followed by a line break, as titles stand above their paragraph. 0 when there is none.
     */
    static int headingEnd(String sentence) {
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
    static int titleLineEnd(String sentence) {
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
     * "When" in a text without a session date: the time expression nearest the question's own words
     * ("has worked in France since 2000" for "since what year did he work in France", not the birth
     * date that opens the sentence).
     */
    static Optional<Answer> nearestTime(String question, String sentence) {
        List<TimeExpressions.Found> found = TimeExpressions.in(sentence, null);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        if (TimeExpressions.asksForBirth(question)) {
            Optional<TimeExpressions.Found> birth = TimeExpressions.birth(sentence);
            if (birth.isPresent()) {
                found = List.of(birth.get());
            }
        }
        List<Span> near = questionWordSpans(sentence, words(question));
        TimeExpressions.Found best = found.getFirst();
        int bestDistance = Integer.MAX_VALUE;
        for (TimeExpressions.Found f : found) {
            for (Span w : near) {
                int d = Math.min(
                        Math.abs(w.start() - f.span().end()), Math.abs(f.span().start() - w.end()));
                if (d < bestDistance) {
                    bestDistance = d;
                    best = f;
                }
            }
        }
        return Optional.of(new Answer(
                best.resolved(), best.span(), best.derived() || !best.resolved().equals(best.written()), Kind.DATE));
    }

    /** "What year": the year of the date found ("April 23, 1928" answers "1928"), still pointing at where it was written. */
    private static Answer year(Answer date, String sentence) {
        Matcher y = FOUR_DIGIT_YEAR.matcher(date.text());
        if (!y.find()) {
            return date;
        }
        return new Answer(y.group(), date.span(), !date.span().of(sentence).equals(y.group()), date.kind());
    }

    /**
     * "X is a ..." answers a question that describes X without naming it: in a sentence that opens
     * with a name followed by "is/was a(n)/the" (an aside in brackets or between commas allowed), the
     * name is the answer when the question does not contain it and the rest of the sentence shares
     * words with the question ("What science fantasy series...?" — "Animorphs is a science fantasy
     * series ..."). The usual shape of a definition and of an encyclopedia's first sentence.
     */
    static Optional<Answer> subject(String question, String sentence) {
        Matcher m = COPULAR_SUBJECT.matcher(sentence);
        if (!m.find()) {
            return Optional.empty();
        }
        String subject = m.group(1);
        Set<String> asked = words(question);
        List<String> subjectWords = contentWords(subject);
        if (subjectWords.isEmpty() || subjectWords.stream().anyMatch(w -> asked.contains(stem(w)))) {
            return Optional.empty();
        }
        String predicate = sentence.substring(m.end(1));
        long shared = contentWords(predicate).stream()
                .map(ShortAnswer::stem)
                .distinct()
                .filter(asked::contains)
                .count();
        if (shared < 2) {
            return Optional.empty();
        }
        return Optional.of(new Answer(subject, new Span(m.start(1), m.end(1)), false, Kind.NAMES));
    }

    /**
     * For "what ..." in prose: a capitalised name the question does not hold ("held the post of
     * Chief of Protocol"), the one nearest the question's own words; names that start the sentence
     * only when nothing else is there (a sentence's first word is capitalised anyway).
     */
    static Optional<Answer> namedThing(String question, String sentence) {
        Set<String> asked = words(question);
        List<Span> nearWords = questionWordSpans(sentence, asked);
        if (nearWords.isEmpty()) {
            return Optional.empty();
        }
        Span best = null;
        int bestDistance = Integer.MAX_VALUE;
        Matcher m = NAME.matcher(sentence);
        while (m.find()) {
            String name = m.group();
            List<String> parts = List.of(name.split("\\s+"));
            if (parts.stream().allMatch(p -> NOT_NAMES.contains(p) || asked.contains(stem(p)) || isDemonym(p))
                    || parts.stream()
                            .anyMatch(p -> asked.contains(stem(p)) && !FILLER.contains(p.toLowerCase(Locale.ROOT)))
                    || (parts.size() == 1 && startsSentence(sentence, m.start()))
                    || qualifiesAskedWord(sentence, m.start(), asked)) {
                continue;
            }
            int start = m.start();
            // "Meet Shadow": a leading word that is not part of the name is left out
            while (parts.size() > 1 && (NOT_NAMES.contains(parts.getFirst()) || isCommonWord(parts.getFirst()))) {
                start = sentence.indexOf(parts.get(1), start + parts.getFirst().length());
                parts = parts.subList(1, parts.size());
            }
            int distance = Integer.MAX_VALUE;
            for (Span w : nearWords) {
                distance = Math.min(distance, Math.min(Math.abs(w.start() - m.end()), Math.abs(start - w.end())));
            }
            if (distance < bestDistance) {
                bestDistance = distance;
                best = new Span(start, m.end());
            }
        }
        if (best == null || bestDistance > 80) {
            return Optional.empty();
        }
        return Optional.of(new Answer(best.of(sentence), best, false, Kind.NAMES));
    }

    private static final Pattern OF_BEFORE = Pattern.compile("(\\p{L}+)\\s+of\\s+$");

    /**
     * A name that says which of something the question already names ("the mill of Carew" for "what
     * did the mill grind?") is part of the question's subject, not its answer.
     */
    private static boolean qualifiesAskedWord(String sentence, int nameStart, Set<String> asked) {
        Matcher before = OF_BEFORE.matcher(sentence.substring(Math.max(0, nameStart - 40), nameStart));
        return before.find() && asked.contains(stem(before.group(1)));
    }

    private static final Pattern NATIONALITY =
            Pattern.compile("\\b(?:what|which)\\s+nationalit(?:y|ies)\\b", Pattern.CASE_INSENSITIVE);

    static boolean asksNationality(String question) {
        return NATIONALITY.matcher(question).find();
    }

    /** "What nationality ...?": the sentence's first adjective of nationality ("was a British anthropologist" answers "British"). */
    static Optional<Answer> nationality(String sentence) {
        Matcher w = WORD.matcher(sentence);
        while (w.find()) {
            if (Character.isUpperCase(w.group().charAt(0)) && isDemonym(w.group())) {
                return Optional.of(new Answer(w.group(), new Span(w.start(), w.end()), false, Kind.PHRASE));
            }
        }
        return Optional.empty();
    }

    /** "What ...", "Which ...", "... known as what?": a question after a thing, not a reason or a manner. */
    static boolean asksWhat(String question) {
        String q = question.strip().toLowerCase(Locale.ROOT);
        return !q.startsWith("why") && !q.startsWith("how") && q.matches(".*\\b(what|which)\\b.*");
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

    private static List<Span> questionWordSpans(String sentence, Set<String> asked) {
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

    private static List<String> contentWords(String text) {
        List<String> out = new ArrayList<>();
        Matcher w = WORD.matcher(text);
        while (w.find()) {
            if (!FILLER.contains(w.group().toLowerCase(Locale.ROOT))) {
                out.add(w.group());
            }
        }
        return out;
    }

    private static boolean startsSentence(String sentence, int at) {
        for (int i = 0; i < at; i++) {
            if (Character.isLetterOrDigit(sentence.charAt(i))) {
                return false;
            }
        }
        return true;
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

    /**
     * For "when": the sentence's first time expression, resolved; in a conversation a sentence
     * without one is taken to speak of its own day ("I just signed up" answers with the session date).
     */
    static Optional<Answer> time(String sentence, LocalDate said) {
        Optional<TimeExpressions.Found> found = TimeExpressions.first(sentence, said);
        if (found.isPresent()) {
            TimeExpressions.Found f = found.get();
            return Optional.of(new Answer(
                    f.resolved(), f.span(), f.derived() || !f.resolved().equals(f.written()), Kind.DATE));
        }
        if (said != null) {
            return Optional.of(
                    new Answer(TimeExpressions.format(said), new Span(0, sentence.length()), true, Kind.SESSION_DATE));
        }
        return Optional.empty();
    }

    /** For "who": the names in the sentence that the question does not already contain, in order. */
    static Optional<Answer> names(String question, String sentence) {
        Set<String> asked = words(question);
        List<Span> names = new ArrayList<>();
        Matcher m = NAME.matcher(sentence);
        while (m.find()) {
            String name = m.group();
            List<String> parts = List.of(name.split("\\s+"));
            if (parts.stream()
                    .allMatch(
                            p -> NOT_NAMES.contains(p) || asked.contains(stem(p)) || isDemonym(p) || isCommonWord(p))) {
                continue;
            }
            int start = m.start();
            // "Then Rob" / "Thanks Rob": drop a leading word that is not part of the name
            while (parts.size() > 1 && NOT_NAMES.contains(parts.getFirst())) {
                start = sentence.indexOf(parts.get(1), start + parts.getFirst().length());
                parts = parts.subList(1, parts.size());
            }
            names.add(new Span(start, m.end()));
        }
        if (names.isEmpty()) {
            return Optional.empty();
        }
        if (names.size() > 1 && !asksForSeveral(question)) {
            // one person asked for: the name nearest the question's own words in the sentence
            List<Span> near = questionWordSpans(sentence, asked);
            Span nearest = names.getFirst();
            int bestDistance = Integer.MAX_VALUE;
            for (Span name : names) {
                for (Span w : near) {
                    int d = Math.min(Math.abs(w.start() - name.end()), Math.abs(name.start() - w.end()));
                    if (d < bestDistance) {
                        bestDistance = d;
                        nearest = name;
                    }
                }
            }
            return Optional.of(new Answer(nearest.of(sentence), nearest, false, Kind.NAMES));
        }
        Span all = new Span(names.getFirst().start(), names.getLast().end());
        String text = names.size() == 1
                ? names.getFirst().of(sentence)
                : String.join(
                        ", ", names.stream().map(s -> s.of(sentence)).distinct().toList());
        return Optional.of(new Answer(text, all, names.size() > 1, Kind.NAMES));
    }

    /** For "where": a capitalised place after a preposition of place, not named in the question. */
    static Optional<Answer> place(String question, String sentence) {
        Set<String> asked = words(question);
        Matcher m = PLACE.matcher(sentence);
        while (m.find()) {
            String place = m.group(1);
            String bare = place.replaceFirst("^the\\s+", "");
            if (NOT_NAMES.contains(bare.split("\\s+")[0]) || asked.contains(stem(bare.split("\\s+")[0]))) {
                continue;
            }
            return Optional.of(new Answer(place, new Span(m.start(1), m.end(1)), false, Kind.PLACE));
        }
        return Optional.empty();
    }

    /**
     * For "how many / much / old": the number that counts what the question asks about ("how many
     * people" → "12 people", not the "31 times" before it), else the first number, with the word it
     * counts when that word is not a filler.
     */
    static Optional<Answer> number(String question, String sentence) {
        Set<String> asked = words(question);
        Answer first = null;
        Matcher m = NUMBER.matcher(sentence);
        while (m.find()) {
            if (m.group(1).chars().allMatch(Character::isDigit)
                    && m.group(1).length() == 4
                    && !question.toLowerCase(Locale.ROOT).contains("year")) {
                continue; // a year, not a count
            }
            int end = m.end(1);
            String counted = m.group(2) == null ? null : m.group(2).strip();
            if (counted != null && !FILLER.contains(counted.toLowerCase(Locale.ROOT))) {
                end = m.end(2);
            }
            Answer answer =
                    new Answer(sentence.substring(m.start(1), end), new Span(m.start(1), end), false, Kind.NUMBER);
            if (counted != null
                    && !FILLER.contains(counted.toLowerCase(Locale.ROOT))
                    && asked.contains(stem(counted))) {
                return Optional.of(answer);
            }
            if (first == null) {
                first = answer;
            }
        }
        return Optional.ofNullable(first);
    }

    /** For "why": what follows "because" (or the like), up to the end of its clause. */
    static Optional<Answer> reason(String sentence) {
        Matcher m = REASON.matcher(sentence);
        if (!m.find()) {
            return Optional.empty();
        }
        int start = m.start();
        int end = clauseEnd(sentence, m.end());
        if (end - m.end() < 3) {
            return Optional.empty();
        }
        return Optional.of(
                new Answer(sentence.substring(start, end).strip(), new Span(start, end), false, Kind.REASON));
    }

    /**
     * What the sentence says beyond the question: the clause-bounded run of words that are not the
     * question's own, with the most content words, trimmed of pronouns and function words at both
     * ends. A run right after the question's words ("Rob invited me to [a yoga class]") wins a tie.
     */
    static Optional<Answer> phrase(String question, String sentence) {
        Set<String> asked = words(question);
        List<Token> tokens = new ArrayList<>();
        Matcher w = WORD.matcher(sentence);
        while (w.find()) {
            String lower = w.group().toLowerCase(Locale.ROOT);
            boolean fromQuestion = asked.contains(stem(w.group()));
            boolean filler = FILLER.contains(lower) || FILLER.contains(lower.replaceFirst("['’]s$", ""));
            tokens.add(new Token(w.start(), w.end(), fromQuestion, filler));
        }
        Span best = null;
        double bestScore = 0;
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
                long content = tokens.subList(first, last + 1).stream()
                        .filter(t -> !t.filler())
                        .count();
                boolean afterQuestion = i > 0
                        && tokens.get(i - 1).fromQuestion()
                        && !boundaryBetween(sentence, tokens.get(i - 1), tokens.get(i));
                double score = Math.min(content, 6) + (afterQuestion ? 1.5 : 0) - Math.max(0, content - 6) * 0.25;
                if (score > bestScore) {
                    bestScore = score;
                    best = new Span(tokens.get(first).start(), tokens.get(last).end());
                }
            }
            i = j + 1;
        }
        if (best == null) {
            return Optional.empty();
        }
        return Optional.of(new Answer(best.of(sentence), best, false, Kind.PHRASE));
    }

    private record Token(int start, int end, boolean fromQuestion, boolean filler) {}

    private static boolean boundaryBetween(String sentence, Token a, Token b) {
        return BOUNDARY.matcher(sentence.substring(a.end(), b.start())).find();
    }

    private static int clauseEnd(String sentence, int from) {
        Matcher b = Pattern.compile("[;:!?.()\"“”—]").matcher(sentence);
        return b.find(from) ? b.start() : sentence.length();
    }

    /** The question's words as stems (question words themselves included, so they never count as new). */
    private static Set<String> words(String question) {
        Set<String> stems = new HashSet<>();
        Matcher m = WORD.matcher(question);
        while (m.find()) {
            stems.add(stem(m.group()));
        }
        return stems;
    }

    private static String stem(String word) {
        String lower = word.toLowerCase(Locale.ROOT).replaceFirst("['’]s$", "");
        List<String> terms = Terms.of(lower);
        return terms.isEmpty() ? lower : terms.getFirst();
    }
}
