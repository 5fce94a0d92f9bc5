package io.lorekeeper.strategy;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Service;

import io.lorekeeper.document.Documents;
import io.lorekeeper.text.Span;

/**
 * The gate every answer passes: a citation survives only if its quote is the source text at its
 * offsets (exactly, or equal once whitespace runs are collapsed). Survivors carry the exact source
 * text as their quote and the conversation turn (or an uploaded file's page and section) they lie
 * in; the rest are dropped and counted.
 */
@Service
public class CitationVerifier {

    private final Documents documents;

    CitationVerifier(Documents documents) {
        this.documents = documents;
    }

    public record Verification(List<Citation> kept, List<Citation> dropped) {}

    public Verification verify(List<Citation> proposed, Set<UUID> allowedDocuments) {
        List<Citation> kept = new ArrayList<>();
        List<Citation> dropped = new ArrayList<>();
        Set<Citation> seen = new LinkedHashSet<>();
        for (Citation citation : proposed) {
            Citation checked = check(citation, allowedDocuments);
            if (checked == null) {
                dropped.add(citation);
            } else if (seen.add(checked)) {
                kept.add(checked);
            }
        }
        return new Verification(kept, dropped);
    }

    private Citation check(Citation c, Set<UUID> allowedDocuments) {
        if (c == null || c.documentId() == null || c.quote() == null || !allowedDocuments.contains(c.documentId())) {
            return null;
        }
        String text = documents.text(c.documentId());
        if (c.start() < 0 || c.end() > text.length() || c.end() <= c.start()) {
            return null;
        }
        String source = text.substring(c.start(), c.end());
        if (!source.equals(c.quote()) && !collapse(source).equals(collapse(c.quote()))) {
            return null;
        }
        Documents.Place place =
                documents.placeOf(c.documentId(), new Span(c.start(), c.end())).orElse(null);
        return new Citation(
                c.documentId(),
                c.start(),
                c.end(),
                source,
                place == null ? null : place.turnId(),
                place == null ? null : place.page(),
                place == null ? null : place.section());
    }

    static String collapse(String s) {
        return s.strip().replaceAll("\\s+", " ");
    }
}
