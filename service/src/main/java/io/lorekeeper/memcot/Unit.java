package io.lorekeeper.memcot;

import java.util.ArrayList;
import java.util.List;

import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.strategy.Citation;

/**
 * One evidence unit of the long-term memory (a chunk: for conversations one or a few turns of a
 * session) as the loop's prompts name it, with its session's date line when it has one.
 *
 * @param id      {@code D<document>-C<chunk ordinal>}, stable for the whole question
 * @param session the {@code [Session n, date]} line of its page, or null for plain texts
 */
record Unit(String id, SearchHit hit, String session) {

    /**
     * The unit as evidence: for a conversation one citation per line it holds (each line lies inside one
     * turn, so each citation names its turn), leaving out the session line, which lies in no turn; for a
     * text the whole chunk.
     */
    List<Citation> citations() {
        String text = hit.text();
        if (hit.turnIds().isEmpty()) {
            return List.of(Citation.of(hit.documentId(), hit.start(), hit.end(), text));
        }
        List<Citation> out = new ArrayList<>();
        for (int from = 0; from < text.length(); ) {
            int newline = text.indexOf('\n', from);
            int to = newline < 0 ? text.length() : newline;
            String line = text.substring(from, to);
            if (!line.isBlank() && !line.equals(session)) {
                out.add(Citation.of(hit.documentId(), hit.start() + from, hit.start() + to, line));
            }
            from = to + 1;
        }
        return out.isEmpty() ? List.of(Citation.of(hit.documentId(), hit.start(), hit.end(), text)) : out;
    }

    /** Where it is, for the trace: id, span and turn ids. */
    MemCotEvent.UnitRef summary() {
        return new MemCotEvent.UnitRef(id, hit.documentId(), hit.start(), hit.end(), hit.turnIds());
    }
}
