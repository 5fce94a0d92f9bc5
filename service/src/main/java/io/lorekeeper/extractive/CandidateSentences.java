package io.lorekeeper.extractive;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.text.ChunkSentences;
import io.lorekeeper.text.Span;

/**
 * Splits retrieved chunks into candidate sentences with absolute spans, in rank order; the spans
 * are {@link ChunkSentences}'s, the ones the {@code sentences} memory stores vectors for. Headings
 * of a text ({@link Headings}) are left out.
 */
final class CandidateSentences {

    private CandidateSentences() {}

    static List<Candidate> from(
            List<SearchHit> rankedHits, java.util.function.Function<java.util.UUID, DocumentKind> kinds) {
        List<Candidate> out = new ArrayList<>();
        Set<Span> seen = new HashSet<>();
        for (int rank = 0; rank < rankedHits.size(); rank++) {
            SearchHit hit = rankedHits.get(rank);
            double prior = rankedHits.size() == 1 ? 1.0 : 1.0 - (double) rank / rankedHits.size();
            boolean conversation = kinds.apply(hit.documentId()) == DocumentKind.CONVERSATION;
            for (Span local : ChunkSentences.of(hit.text(), conversation)) {
                Span span = new Span(hit.start() + local.start(), hit.start() + local.end());
                if (!seen.add(span) || (!conversation && Headings.isHeading(hit.text(), local))) {
                    continue; // a heading names a chapter; it answers nothing
                }
                String speaker = conversation ? ChunkSentences.speakerOf(hit.text(), local.start()) : null;
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
}
