package io.lorekeeper.reasoning.extractive;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.retrieval.SearchHit;
import io.lorekeeper.text.SentenceSplitter;
import io.lorekeeper.text.Span;

/**
 * Splits retrieved chunks into candidate sentences with absolute spans. In conversations every
 * line is a turn, so lines are split first, session header lines are left out, and the
 * {@code "Speaker: "} prefix is kept out of the span, so an answer reads as what was said.
 */
final class CandidateSentences {

    private static final Pattern SPEAKER = Pattern.compile("^[^:\\n]{1,80}: ");
    private static final int MIN_CHARS = 3;

    private CandidateSentences() {}

    static List<Candidate> from(
            List<SearchHit> rankedHits, java.util.function.Function<java.util.UUID, DocumentKind> kinds) {
        List<Candidate> out = new ArrayList<>();
        Set<Span> seen = new HashSet<>();
        for (int rank = 0; rank < rankedHits.size(); rank++) {
            SearchHit hit = rankedHits.get(rank);
            double prior = rankedHits.size() == 1 ? 1.0 : 1.0 - (double) rank / rankedHits.size();
            boolean conversation = kinds.apply(hit.documentId()) == DocumentKind.CONVERSATION;
            for (Span local : conversation ? conversationSentences(hit.text()) : SentenceSplitter.split(hit.text())) {
                Span span = new Span(hit.start() + local.start(), hit.start() + local.end());
                if (local.length() < MIN_CHARS || !seen.add(span)) {
                    continue;
                }
                String speaker = conversation ? speakerOf(hit.text(), local.start()) : null;
                out.add(new Candidate(
                        hit.documentId(),
                        span,
                        local.of(hit.text()),
                        hit.chunkOrdinal(),
                        hit.pageOrdinal(),
                        prior,
                        speaker));
            }
        }
        return out;
    }

    /** The "Name: " that opens the line a sentence is on, or null. */
    static String speakerOf(String text, int at) {
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
