package io.lorekeeper.memcot;

import java.util.List;
import java.util.Locale;

import jakarta.validation.constraints.NotNull;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * The judge's verdict on the short-term memory: which candidates to keep, whether the question can
 * be answered now, and if not, how the queries change.
 *
 * @param resolved for DELETE: the numbers (1-based) of the current queries the evidence already settles
 */
record Judgement(
        String thinking,
        @JsonAlias({"useful_id", "useful_ids"}) List<String> usefulIds,
        @NotNull @JsonAlias("can_answer") Boolean canAnswer,
        Action action,
        @JsonAlias("new_queries") List<String> newQueries,
        List<Integer> resolved) {

    Judgement {
        thinking = thinking == null ? "" : thinking.strip();
        usefulIds = usefulIds == null
                ? List.of()
                : usefulIds.stream().filter(id -> id != null && !id.isBlank()).toList();
        newQueries = newQueries == null
                ? List.of()
                : newQueries.stream()
                        .filter(q -> q != null && !q.isBlank())
                        .map(String::strip)
                        .toList();
        resolved = resolved == null
                ? List.of()
                : resolved.stream().filter(n -> n != null).toList();
    }

    /**
     * A prose reply where JSON was asked: the unit ids it mentions are kept, and since whether it
     * can answer cannot be read from prose reliably, the question stays open with no new queries.
     */
    static Judgement fromProse(String text) {
        return new Judgement(text, Perception.labelsIn(text), false, null, List.of(), List.of());
    }

    /**
     * BREAK splits the query that did not work into atomic sub-queries, which replace the queue;
     * DELETE drops the queries the evidence has settled and keeps the rest, plus any narrowed ones.
     */
    enum Action {
        BREAK,
        DELETE;

        @JsonCreator
        static Action parse(String value) {
            if (value == null) {
                return null;
            }
            return switch (value.strip().toUpperCase(Locale.ROOT)) {
                case "BREAK", "DECOMPOSE", "SPLIT" -> BREAK;
                case "DELETE", "PRUNE", "REMOVE" -> DELETE;
                default -> null;
            };
        }
    }
}
