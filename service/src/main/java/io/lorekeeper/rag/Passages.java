package io.lorekeeper.rag;

import java.util.List;

import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.retrieval.SearchHit;

/**
 * Numbers retrieved passages for a prompt. A conversation passage carries its session's date line
 * as an attribute, because a chunk from the middle of a session does not contain it and turns say
 * "yesterday".
 */
final class Passages {

    private Passages() {}

    record Passage(SearchHit hit, String session) {}

    static PromptMarkup render(List<Passage> passages) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < passages.size(); i++) {
            Passage p = passages.get(i);
            out.append("<passage n=\"").append(i + 1).append('"');
            if (p.session() != null) {
                out.append(" session=\"").append(p.session().replace("\"", "'")).append('"');
            }
            out.append(">\n").append(PromptMarkup.data(p.hit().text())).append("\n</passage>\n\n");
        }
        return PromptMarkup.of(out.toString());
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
