package io.lorekeeper.text;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sentences of one chunk, as spans of its text: what a sentence scorer ranks and what the
 * {@code sentences} memory stores a vector for, so that the two always mean the same spans. In
 * conversations every line is a turn: lines are split first, session header lines are left out, and
 * the {@code "Speaker: "} prefix is kept out of the span, so a sentence reads as what was said.
 * Spans shorter than three characters are left out.
 */
public final class ChunkSentences {

    private static final Pattern SPEAKER = Pattern.compile("^[^:\\n]{1,80}: ");
    private static final int MIN_CHARS = 3;

    private ChunkSentences() {}

    /** Spans of {@code chunkText}, in order. */
    public static List<Span> of(String chunkText, boolean conversation) {
        List<Span> out = new ArrayList<>();
        for (Span span : conversation ? conversationSentences(chunkText) : SentenceSplitter.split(chunkText)) {
            if (span.length() >= MIN_CHARS) {
                out.add(span);
            }
        }
        return out;
    }

    /** The "Name" of the "Name: " that opens the line {@code at} is on, or null. */
    public static String speakerOf(String text, int at) {
        int lineStart = text.lastIndexOf('\n', Math.max(0, at - 1)) + 1;
        int lineEnd = text.indexOf('\n', lineStart);
        Matcher speaker = SPEAKER.matcher(text.substring(lineStart, lineEnd < 0 ? text.length() : lineEnd));
        return speaker.find()
                ? speaker.group().substring(0, speaker.group().length() - 2).strip()
                : null;
    }

    private static List<Span> conversationSentences(String text) {
        List<Span> sentences = new ArrayList<>();
        int lineStart = 0;
        while (lineStart < text.length()) {
            int lineEnd = text.indexOf('\n', lineStart);
            if (lineEnd < 0) {
                lineEnd = text.length();
            }
            String line = text.substring(lineStart, lineEnd);
            if (!line.startsWith("[Session ")) {
                Matcher speaker = SPEAKER.matcher(line);
                int from = lineStart + (speaker.find() ? speaker.end() : 0);
                sentences.addAll(SentenceSplitter.split(text, from, lineEnd));
            }
            lineStart = lineEnd + 1;
        }
        return sentences;
    }
}
