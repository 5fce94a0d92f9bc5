package io.lorekeeper.document.files;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.lorekeeper.document.files.StructuredTextHandler.Kind;
import io.lorekeeper.document.files.StructuredTextHandler.RawPart;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TextNormalizer;

/**
 * The canonical text of an uploaded file and its pages and sections, each a span of it. The text is
 * cleaned before any offset is assigned, so the canonical text is the cleaned text: running headers
 * and footers (a first or last line of a page that recurs, digits aside, on at least half of the pages
 * of a document of three pages or more) and bare page numbers at a page's top or bottom are removed,
 * a word hyphenated at a line end is joined ("exam-\nple" becomes "example", also across a paragraph
 * break a parser put between the lines when the next one starts in lower case), trailing spaces go and
 * runs of blank lines become one. Parts are joined by a blank line.
 */
public record ExtractedText(String text, List<Section> sections) {

    /**
     * A page (PDF; {@code page} is its 1-based number) or a section (a heading and what follows it up
     * to the next heading; {@code title} and {@code level} 1 to 6), as a span of the canonical text.
     */
    public record Section(int ordinal, String kind, Integer page, String title, Integer level, Span span) {
        static final String PAGE = "page";
        static final String SECTION = "section";
    }

    private static final Pattern HYPHENATED = Pattern.compile("(\\p{L})-[ \\t]*\\n(?:[ \\t]*\\n)?[ \\t]*(\\p{Ll})");
    private static final Pattern PAGE_NUMBER = Pattern.compile(
            "(?i)^(?:page\\s+)?(?:\\d{1,5}|[ivxlcdm]{1,8})(?:\\s*(?:/|of)\\s*\\d{1,5})?$|^[-–—]\\s*\\d{1,5}\\s*[-–—]$");
    private static final Pattern BLANK_LINES = Pattern.compile("\\n{3,}");
    /** How many lines at each end of a page may be a running header or footer. */
    private static final int EDGE_LINES = 2;

    static ExtractedText assemble(List<RawPart> parts) {
        List<String> pageTexts = cleanPages(parts);
        StringBuilder text = new StringBuilder();
        List<Section> sections = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            RawPart part = parts.get(i);
            String cleaned = clean(pageTexts.get(i) != null ? pageTexts.get(i) : part.text());
            int start = text.length();
            if (!cleaned.isEmpty()) {
                if (!text.isEmpty()) {
                    text.append("\n\n");
                    start = text.length();
                }
                text.append(cleaned);
            }
            Span span = new Span(start, text.length());
            switch (part.kind()) {
                case PAGE ->
                    sections.add(new Section(sections.size(), Section.PAGE, part.pageNumber(), null, null, span));
                case SECTION -> {
                    if (part.title() != null && !part.title().isEmpty()) {
                        sections.add(
                                new Section(sections.size(), Section.SECTION, null, part.title(), part.level(), span));
                    }
                }
                case NONE -> {}
            }
        }
        return new ExtractedText(text.toString(), sections);
    }

    /** Each page's text without its running headers, footers and page numbers; null for parts that are no page. */
    private static List<String> cleanPages(List<RawPart> parts) {
        List<List<String>> pages = new ArrayList<>();
        for (RawPart part : parts) {
            pages.add(
                    part.kind() == Kind.PAGE
                            ? new ArrayList<>(List.of(normalized(part.text()).split("\n", -1)))
                            : null);
        }
        long pageCount = pages.stream().filter(p -> p != null).count();
        Set<String> running = new HashSet<>();
        if (pageCount >= 3) {
            Map<String, Integer> seen = new HashMap<>();
            for (List<String> lines : pages) {
                if (lines == null) {
                    continue;
                }
                Set<String> onThisPage = new HashSet<>();
                for (int index : edgeLines(lines)) {
                    onThisPage.add(shape(lines.get(index)));
                }
                onThisPage.forEach(s -> seen.merge(s, 1, Integer::sum));
            }
            seen.forEach((shape, count) -> {
                if (count * 2 >= pageCount && !shape.isEmpty()) {
                    running.add(shape);
                }
            });
        }
        List<String> out = new ArrayList<>();
        for (List<String> lines : pages) {
            if (lines == null) {
                out.add(null);
                continue;
            }
            List<Integer> drop = new ArrayList<>();
            for (int index : edgeLines(lines)) {
                String line = lines.get(index).strip();
                if (running.contains(shape(line)) || PAGE_NUMBER.matcher(line).matches()) {
                    drop.add(index);
                }
            }
            drop.sort((a, b) -> b - a);
            for (int index : drop) {
                lines.remove(index);
            }
            out.add(String.join("\n", lines));
        }
        return out;
    }

    /** Indexes of the first and last {@link #EDGE_LINES} non-blank lines of a page. */
    private static List<Integer> edgeLines(List<String> lines) {
        List<Integer> nonBlank = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                nonBlank.add(i);
            }
        }
        Set<Integer> edges = new java.util.TreeSet<>();
        for (int i = 0; i < Math.min(EDGE_LINES, nonBlank.size()); i++) {
            edges.add(nonBlank.get(i));
            edges.add(nonBlank.get(nonBlank.size() - 1 - i));
        }
        return new ArrayList<>(edges);
    }

    /** A line as a running header is recognised: digits (the page number in it) aside, spaces collapsed. */
    private static String shape(String line) {
        return line.strip().replaceAll("\\d+", "#").replaceAll("\\s+", " ");
    }

    private static String normalized(String raw) {
        return TextNormalizer.normalize(raw).replace('\f', '\n');
    }

    /**
     * Drops spaces, tabs and no-break spaces before each line end, in one pass: the regular expression
     * this replaces started over at every space of a run that no line end follows, quadratic in the
     * run (a file of a million spaces held a thread for hours).
     */
    static String withoutTrailingSpaces(String s) {
        StringBuilder out = null;
        int copied = 0;
        int runStart = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t' || c == '\u00A0') {
                if (runStart < 0) {
                    runStart = i;
                }
                continue;
            }
            if (c == '\n' && runStart >= 0) {
                if (out == null) {
                    out = new StringBuilder(s.length());
                }
                out.append(s, copied, runStart);
                copied = i;
            }
            runStart = -1;
        }
        if (out == null) {
            return s;
        }
        return out.append(s, copied, s.length()).toString();
    }

    static String clean(String raw) {
        String s = normalized(raw);
        s = withoutTrailingSpaces(s);
        s = HYPHENATED.matcher(s).replaceAll("$1$2");
        s = BLANK_LINES.matcher(s).replaceAll("\n\n");
        return s.strip();
    }
}
