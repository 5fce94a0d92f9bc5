package io.lorekeeper.document.files;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.xml.sax.Attributes;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Reads Tika's XHTML output (SAX events) into raw parts: one per PDF page ({@code <div class="page">})
 * and one per heading ({@code h1}-{@code h6}) with what follows it, and untitled parts for text outside
 * both. Block elements become line and paragraph breaks. Counts the characters it keeps and stops the
 * parse (a {@link Stop}) past {@code maxChars}, when its thread is interrupted, or past a deadline, so
 * a cancelled or runaway extraction ends at the next SAX event.
 */
final class StructuredTextHandler extends DefaultHandler {

    enum Kind {
        PAGE,
        SECTION,
        NONE
    }

    /** A piece of the document before cleaning: a page, a section (from its heading on), or neither. */
    record RawPart(Kind kind, int pageNumber, String title, int level, String text) {}

    /** Why the handler stopped the parse. */
    static final class Stop extends SAXException {
        enum Reason {
            TOO_MUCH_TEXT,
            CANCELLED
        }

        final Reason reason;

        Stop(Reason reason) {
            super(reason.name());
            this.reason = reason;
        }
    }

    private static final Set<String> PARAGRAPH =
            Set.of("p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "ul", "ol", "section");
    private static final Set<String> LINE = Set.of("li", "tr", "br", "div", "dt", "dd", "title", "td", "th");
    private static final Set<String> SKIPPED = Set.of("script", "style", "head");

    private final long maxChars;
    private final long deadlineNanos;
    private final boolean paged;
    private final List<RawPart> parts = new ArrayList<>();
    private final List<Boolean> divIsPage = new ArrayList<>();
    private StringBuilder current = new StringBuilder();
    private Kind currentKind = Kind.NONE;
    private int currentPage;
    private String currentTitle;
    private int currentLevel;
    private StringBuilder heading;
    private int headingLevel;
    private int bodyDepth;
    private int skipDepth;
    private int pageDepth;
    private int pages;
    private long chars;

    /** {@code paged}: the format has pages (PDF); elsewhere a {@code <div class="page">} is just a div. */
    StructuredTextHandler(long maxChars, long deadlineNanos, boolean paged) {
        this.maxChars = maxChars;
        this.deadlineNanos = deadlineNanos;
        this.paged = paged;
    }

    int pages() {
        return pages;
    }

    List<RawPart> parts() {
        close(Kind.NONE, 0, null, 0);
        return parts;
    }

    @Override
    public void startElement(String uri, String localName, String qName, Attributes atts) throws SAXException {
        check();
        String name = name(localName, qName);
        if (name.equals("body")) {
            bodyDepth++;
            return;
        }
        if (SKIPPED.contains(name)) {
            skipDepth++;
            return;
        }
        if (bodyDepth == 0 || skipDepth > 0) {
            return;
        }
        if (name.equals("div")) {
            boolean page = paged && "page".equals(atts.getValue("class"));
            divIsPage.add(page);
            if (page) {
                pages++;
                pageDepth++;
                close(Kind.PAGE, pages, null, 0);
                return;
            }
        }
        int level = headingLevel(name);
        if (level > 0 && pageDepth == 0 && heading == null) {
            close(Kind.SECTION, 0, null, level);
            heading = new StringBuilder();
            headingLevel = level;
            return;
        }
        if (PARAGRAPH.contains(name) || LINE.contains(name)) {
            lineBreak();
        }
    }

    @Override
    public void endElement(String uri, String localName, String qName) throws SAXException {
        check();
        String name = name(localName, qName);
        if (name.equals("body")) {
            bodyDepth = Math.max(0, bodyDepth - 1);
            return;
        }
        if (SKIPPED.contains(name)) {
            skipDepth = Math.max(0, skipDepth - 1);
            return;
        }
        if (bodyDepth == 0 || skipDepth > 0) {
            return;
        }
        if (name.equals("div") && !divIsPage.isEmpty()) {
            if (divIsPage.removeLast()) {
                pageDepth--;
                close(Kind.NONE, 0, null, 0);
                return;
            }
        }
        if (heading != null && headingLevel(name) == headingLevel) {
            currentTitle = heading.toString().strip().replaceAll("\\s+", " ");
            if (currentTitle.length() > 500) {
                currentTitle = currentTitle.substring(0, 500);
            }
            heading = null;
            current.append("\n\n");
            return;
        }
        if (PARAGRAPH.contains(name)) {
            current.append("\n\n");
        } else if (LINE.contains(name)) {
            lineBreak();
        }
    }

    @Override
    public void characters(char[] ch, int start, int length) throws SAXException {
        check();
        if (bodyDepth == 0 || skipDepth > 0) {
            return;
        }
        chars += length;
        if (chars > maxChars) {
            throw new Stop(Stop.Reason.TOO_MUCH_TEXT);
        }
        current.append(ch, start, length);
        if (heading != null) {
            heading.append(ch, start, length);
        }
    }

    /** Tika writes a PDF's line ends (and the breaks after blocks) as ignorable whitespace: they are text here. */
    @Override
    public void ignorableWhitespace(char[] ch, int start, int length) throws SAXException {
        characters(ch, start, length);
    }

    private void check() throws Stop {
        if (Thread.currentThread().isInterrupted() || System.nanoTime() - deadlineNanos > 0) {
            throw new Stop(Stop.Reason.CANCELLED);
        }
    }

    private void lineBreak() {
        if (!current.isEmpty() && current.charAt(current.length() - 1) != '\n') {
            current.append('\n');
        }
    }

    /** Ends the current part and starts one of the given kind. */
    private void close(Kind kind, int page, String title, int level) {
        if (currentKind != Kind.NONE || !current.toString().isBlank()) {
            parts.add(new RawPart(currentKind, currentPage, currentTitle, currentLevel, current.toString()));
        }
        current = new StringBuilder();
        currentKind = kind;
        currentPage = page;
        currentTitle = title;
        currentLevel = level;
    }

    private static int headingLevel(String name) {
        return name.length() == 2 && name.charAt(0) == 'h' && name.charAt(1) >= '1' && name.charAt(1) <= '6'
                ? name.charAt(1) - '0'
                : 0;
    }

    private static String name(String localName, String qName) {
        String name = localName == null || localName.isEmpty() ? qName : localName;
        int colon = name.indexOf(':');
        return (colon >= 0 ? name.substring(colon + 1) : name).toLowerCase(Locale.ROOT);
    }
}
