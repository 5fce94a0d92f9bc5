package io.lorekeeper.rag;

import java.util.List;
import java.util.Map;

import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.llm.NumberedMarkup;
import io.lorekeeper.llm.PromptMarkup;

/**
 * Numbers retrieved passages for a prompt. A conversation passage carries its session's date line
 * as an attribute, because a chunk from the middle of a session does not contain it and turns say
 * "yesterday".
 */
final class Passages {

    private Passages() {}

    record Passage(SearchHit hit, String session) {}

    static PromptMarkup render(List<Passage> passages) {
        return NumberedMarkup.render(
                "passage",
                passages.stream()
                        .map(p -> NumberedMarkup.Block.of(
                                p.hit().text(), p.session() == null ? Map.of() : Map.of("session", p.session())))
                        .toList());
    }

    static List<RagEvent.Shown> summary(List<Passage> passages) {
        return passages.stream()
                .map(p -> new RagEvent.Shown(
                        p.hit().documentId(),
                        p.hit().chunkOrdinal(),
                        p.hit().start(),
                        p.hit().end(),
                        p.hit().turnIds()))
                .toList();
    }
}
