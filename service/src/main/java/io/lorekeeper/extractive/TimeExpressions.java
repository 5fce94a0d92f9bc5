package io.lorekeeper.extractive;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.Month;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lorekeeper.text.Span;

/**
 * Time expressions in a sentence, resolved against the date the sentence was said on. Turns of a
 * conversation say "yesterday" or "last week"; only the session header says which day that was, so
 * a "when" answer is the expression rewritten against that date ("yesterday" on 8 May 2023 is
 * "7 May 2023", "last week" is "the week before 8 May 2023"). Explicit dates and years are kept as
 * written; a vague expression whose day cannot be computed ("last Friday") is stated relative to
 * the date rather than guessed.
 */
final class TimeExpressions {

    /** An expression found in the text ({@code span} relative to it) and what it means as a date. */
    record Found(Span span, String written, String resolved, boolean derived) {}

    private static final String MONTH =
            "(January|February|March|April|May|June|July|August|September|October|November|December"
                    + "|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)";
    private static final String DAY = "(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
    private static final String COUNT =
            "(a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|few|couple of|a couple of|\\d{1,2})";
    private static final String UNIT = "(day|week|weekend|month|year)s?";

    private static final Pattern DAY_MONTH_YEAR =
            Pattern.compile("\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?" + MONTH + ",?\\s+(\\d{4})\\b");
    private static final Pattern MONTH_DAY_YEAR =
            Pattern.compile("\\b" + MONTH + "\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b");
    private static final Pattern MONTH_YEAR = Pattern.compile("\\b" + MONTH + ",?\\s+(\\d{4})\\b");
    private static final Pattern YEAR =
            Pattern.compile("\\b(?:in|since|of|from|back in)\\s+((?:19|20)\\d{2})\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern BARE_YEAR =
            Pattern.compile("(?<![\\d$£€.,])\\b(1[0-9]\\d{2}|20\\d{2})\\b(?![\\d,.]\\d)");
    private static final Pattern AGO =
            Pattern.compile("\\b" + COUNT + "\\s+" + UNIT + "\\s+ago\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern RELATIVE = Pattern.compile(
            "\\b(last|this|next|past)\\s+(night|weekend|week|month|year|summer|winter|spring|fall|autumn|"
                    + DAY.substring(1) + "\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern DEICTIC = Pattern.compile(
            "\\b(yesterday|today|tonight|tomorrow|this morning|this afternoon|this evening)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern BARE_DAY =
            Pattern.compile("\\b(?:on|this|last)\\s+" + DAY + "\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern IN_MONTH = Pattern.compile("\\b(?:in|since|during|by|until)\\s+" + MONTH + "\\b");
    private static final Pattern SESSION_DATE = Pattern.compile("\\bon\\s+(\\d{1,2})\\s+" + MONTH + ",?\\s+(\\d{4})");

    private static final Map<String, Integer> NUMBERS = Map.ofEntries(
            Map.entry("a", 1),
            Map.entry("an", 1),
            Map.entry("one", 1),
            Map.entry("two", 2),
            Map.entry("three", 3),
            Map.entry("four", 4),
            Map.entry("five", 5),
            Map.entry("six", 6),
            Map.entry("seven", 7),
            Map.entry("eight", 8),
            Map.entry("nine", 9),
            Map.entry("ten", 10));

    private TimeExpressions() {}

    /** The date in a session header line such as {@code [Session 3, 7:55 pm on 9 June, 2023]}. */
    static Optional<LocalDate> sessionDate(String header) {
        Matcher m = SESSION_DATE.matcher(header);
        if (!m.find()) {
            return Optional.empty();
        }
        return date(Integer.parseInt(m.group(3)), m.group(2), Integer.parseInt(m.group(1)));
    }

    /** A date the way LoCoMo and most people write it: {@code 7 May 2023}. */
    static String format(LocalDate date) {
        return date.getDayOfMonth() + " " + monthName(date.getMonth()) + " " + date.getYear();
    }

    /**
     * The expressions of the text, in text order, each resolved against {@code said} when given
     * (without it, only explicit dates resolve; relative ones are kept as written).
     */
    static List<Found> in(String text, LocalDate said) {
        List<Found> found = new ArrayList<>();
        explicit(text, found);
        if (said != null) {
            relative(text, said, found);
        } else {
            bareYears(text, found);
        }
        found.sort(Comparator.comparingInt(f -> f.span().start()));
        return found;
    }

    /** The first expression of the text, if any; explicit dates win over relative ones at the same place. */
    static Optional<Found> first(String text, LocalDate said) {
        List<Found> all = in(text, said);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.getFirst());
    }

    /** "born", "birth", "birthday": the question asks when someone was born, not when anything else happened. */
    private static final Pattern ASKS_BIRTH = Pattern.compile("\\b(born|birth|birthdate)\\b", Pattern.CASE_INSENSITIVE);
    /** "born", then up to 40 characters of the same clause ("born in Muncie, Indiana, on"), ending where the date starts. */
    private static final Pattern BORN_BEFORE = Pattern.compile("\\bborn\\b[^;()–—]{0,40}$", Pattern.CASE_INSENSITIVE);
    /** What follows the first date of a lifespan: a dash and the second ("1865 – 20 January 1936"). */
    private static final Pattern LIFESPAN_DASH = Pattern.compile("^\\s*[–—-]\\s*\\S");

    static boolean asksForBirth(String question) {
        return ASKS_BIRTH.matcher(question).find();
    }

    /**
     * The date someone was born on, as an encyclopedia writes it: after "born" ("(born April 1,
     * 1949)") or as the first date of a bracketed lifespan ("(3 June 1865 – 20 January 1936)"). A
     * question after a birth year is not answered by the death date or any other date beside it.
     */
    static Optional<Found> birth(String text) {
        for (Found f : in(text, null)) {
            String before =
                    text.substring(Math.max(0, f.span().start() - 60), f.span().start());
            if (BORN_BEFORE.matcher(before).find()) {
                return Optional.of(f);
            }
            int open = before.lastIndexOf('(');
            boolean inBrackets = open >= 0 && before.indexOf(')', open) < 0;
            if (inBrackets
                    && LIFESPAN_DASH.matcher(text.substring(f.span().end())).find()) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /**
     * In a text that is not a dated conversation, a bare year ("(1881 – 1927)", "between 1903–1912")
     * is a time expression too; in conversation a bare four-digit number is as often a count or a price.
     */
    private static void bareYears(String text, List<Found> found) {
        Matcher y = BARE_YEAR.matcher(text);
        while (y.find()) {
            add(found, text, y.start(1), y.end(1), y.group(1), false);
        }
    }

    private static void explicit(String text, List<Found> found) {
        Matcher m = DAY_MONTH_YEAR.matcher(text);
        while (m.find()) {
            date(Integer.parseInt(m.group(3)), m.group(2), Integer.parseInt(m.group(1)))
                    .ifPresent(d -> add(found, text, m.start(), m.end(), format(d), false));
        }
        Matcher md = MONTH_DAY_YEAR.matcher(text);
        while (md.find()) {
            date(Integer.parseInt(md.group(3)), md.group(1), Integer.parseInt(md.group(2)))
                    .ifPresent(d -> add(found, text, md.start(), md.end(), format(d), false));
        }
        Matcher my = MONTH_YEAR.matcher(text);
        while (my.find()) {
            add(found, text, my.start(), my.end(), monthName(month(my.group(1))) + " " + my.group(2), false);
        }
        Matcher y = YEAR.matcher(text);
        while (y.find()) {
            add(found, text, y.start(1), y.end(1), y.group(1), false);
        }
    }

    private static void relative(String text, LocalDate said, List<Found> found) {
        String on = format(said);
        Matcher d = DEICTIC.matcher(text);
        while (d.find()) {
            String word = d.group(1).toLowerCase(Locale.ROOT);
            LocalDate day = switch (word) {
                case "yesterday" -> said.minusDays(1);
                case "tomorrow" -> said.plusDays(1);
                default -> said;
            };
            add(found, text, d.start(), d.end(), format(day), true);
        }
        Matcher r = RELATIVE.matcher(text);
        while (r.find()) {
            add(found, text, r.start(), r.end(), relativeTo(said, r.group(1), r.group(2)), true);
        }
        Matcher a = AGO.matcher(text);
        while (a.find()) {
            add(found, text, a.start(), a.end(), ago(said, a.group(1), a.group(2)), true);
        }
        Matcher b = BARE_DAY.matcher(text);
        while (b.find()) {
            String day = capitalise(b.group(1).toLowerCase(Locale.ROOT));
            boolean past = b.group().toLowerCase(Locale.ROOT).startsWith("last")
                    || DayOfWeek.valueOf(day.toUpperCase(Locale.ROOT)) != said.getDayOfWeek();
            add(found, text, b.start(), b.end(), past ? "the " + day + " before " + on : format(said), true);
        }
        Matcher im = IN_MONTH.matcher(text);
        while (im.find()) {
            Month month = month(im.group(1));
            add(found, text, im.start(1), im.end(1), monthName(month) + " " + said.getYear(), true);
        }
    }

    /** "last month", "next summer", "this Friday": resolved against the day it was said. */
    private static String relativeTo(LocalDate said, String whichWord, String whatWord) {
        String on = format(said);
        String which = whichWord.toLowerCase(Locale.ROOT);
        String what = whatWord.toLowerCase(Locale.ROOT);
        int direction = which.equals("next") ? 1 : which.equals("this") ? 0 : -1;
        return switch (what) {
            case "night" -> direction < 0 ? format(said.minusDays(1)) : format(said);
            case "month" ->
                monthName(said.plusMonths(direction).getMonth()) + " "
                        + said.plusMonths(direction).getYear();
            case "year" -> String.valueOf(said.getYear() + direction);
            case "week", "weekend" ->
                direction == 0
                        ? "the " + what + " of " + on
                        : "the " + what + (direction < 0 ? " before " : " after ") + on;
            case "summer", "winter", "spring", "fall", "autumn" -> what + " " + season(said, what, direction);
            default ->
                direction == 0
                        ? capitalise(what) + " " + on
                        : "the " + capitalise(what) + (direction < 0 ? " before " : " after ") + on;
        };
    }

    /** "two years ago", "3 days ago": a date where the unit allows one, else a phrase relative to the day said. */
    private static String ago(LocalDate said, String count, String unitWord) {
        String on = format(said);
        Integer n = NUMBERS.get(count.toLowerCase(Locale.ROOT));
        if (n == null && count.chars().allMatch(Character::isDigit)) {
            n = Integer.parseInt(count);
        }
        String unit = unitWord.toLowerCase(Locale.ROOT);
        if (n == null) {
            return count.toLowerCase(Locale.ROOT) + " " + unit + "s before " + on;
        }
        return switch (unit) {
            case "day" -> format(said.minusDays(n));
            case "month" ->
                monthName(said.minusMonths(n).getMonth()) + " "
                        + said.minusMonths(n).getYear();
            case "year" -> String.valueOf(said.getYear() - n);
            default -> (n == 1 ? "the " + unit : n + " " + unit + "s") + " before " + on;
        };
    }

    /** Adds the expression unless an earlier (more specific) pattern already covers part of it. */
    private static void add(List<Found> found, String text, int start, int end, String resolved, boolean derived) {
        Span span = new Span(start, end);
        if (found.stream().noneMatch(f -> f.span().overlaps(span))) {
            found.add(new Found(span, text.substring(start, end), resolved, derived));
        }
    }

    /** The year of the season meant: "last summer" said in October is that year's summer, said in May the year before's. */
    private static int season(LocalDate said, String season, int direction) {
        int starts = switch (season) {
            case "spring" -> 3;
            case "summer" -> 6;
            case "fall", "autumn" -> 9;
            default -> 12;
        };
        boolean over = said.getMonthValue() > starts + 2;
        int year = said.getYear();
        if (direction < 0 && !over) {
            year--;
        } else if (direction > 0 && over) {
            year++;
        }
        return year;
    }

    private static Optional<LocalDate> date(int year, String month, int day) {
        Month m = month(month);
        if (day < 1 || day > m.length(java.time.Year.isLeap(year))) {
            return Optional.empty();
        }
        return Optional.of(LocalDate.of(year, m, day));
    }

    private static Month month(String name) {
        String prefix = name.substring(0, 3).toUpperCase(Locale.ROOT);
        for (Month m : Month.values()) {
            if (m.name().startsWith(prefix)) {
                return m;
            }
        }
        throw new IllegalArgumentException("not a month: " + name);
    }

    private static String monthName(Month month) {
        return month.getDisplayName(TextStyle.FULL, Locale.ENGLISH);
    }

    private static String capitalise(String word) {
        return Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }
}
