package io.lorekeeper.memcot;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.llm.NumberedMarkup;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.retrieval.Retriever;

/**
 * Names chunks for one question's prompts and reads the names back from the model's replies.
 * Labels follow the document's position among the question's documents ({@code D2-C41}); replies
 * are read leniently ("d2-c41", "D2 C41", "[D2-C41]", and "C41" or "41" when there is one document).
 */
final class Units {

    private static final Pattern LABEL = Pattern.compile("(?i)^\\W*(?:D\\s*(\\d+)\\s*\\W*\\s*)?C?\\s*(\\d+)\\W*$");

    private final List<UUID> documents;
    private final Retriever retriever;
    private final Map<String, Optional<String>> sessions = new HashMap<>();

    Units(List<UUID> documents, Retriever retriever) {
        this.documents = List.copyOf(documents);
        this.retriever = retriever;
    }

    Unit of(SearchHit hit) {
        String id = "D" + (documents.indexOf(hit.documentId()) + 1) + "-C" + hit.chunkOrdinal();
        return new Unit(id, hit.withScore(0), session(hit));
    }

    /** The canonical label a model's id stands for, or empty when it is not a label at all. */
    Optional<String> canonical(String modelId) {
        if (modelId == null) {
            return Optional.empty();
        }
        Matcher m = LABEL.matcher(modelId.strip());
        if (!m.matches() || (m.group(1) == null && documents.size() > 1)) {
            return Optional.empty();
        }
        return Optional.of("D" + (m.group(1) == null ? "1" : m.group(1)) + "-C" + Integer.parseInt(m.group(2)));
    }

    /** The units among {@code offered} that the model's ids name (each once), and the ids that name none of them. */
    Selection select(Collection<String> modelIds, Collection<Unit> offered) {
        Map<String, Unit> byId = new LinkedHashMap<>();
        offered.forEach(u -> byId.put(u.id(), u));
        Map<String, Unit> chosen = new LinkedHashMap<>();
        List<String> unknown = new ArrayList<>();
        for (String modelId : modelIds == null ? List.<String>of() : modelIds) {
            Unit unit = canonical(modelId).map(byId::get).orElse(null);
            if (unit == null) {
                unknown.add(String.valueOf(modelId));
            } else {
                chosen.putIfAbsent(unit.id(), unit);
            }
        }
        return new Selection(inDocumentOrder(chosen.values()), unknown);
    }

    record Selection(List<Unit> units, List<String> unknown) {
        List<String> ids() {
            return units.stream().map(Unit::id).toList();
        }
    }

    Comparator<Unit> order() {
        return Comparator.comparingInt((Unit u) -> documents.indexOf(u.hit().documentId()))
                .thenComparingInt(u -> u.hit().start());
    }

    List<Unit> inDocumentOrder(Collection<Unit> units) {
        return units.stream().sorted(order()).toList();
    }

    /** Units as tagged passages in document order, each with its id and session date. */
    PromptMarkup render(Collection<Unit> units, String emptyText) {
        if (units.isEmpty()) {
            return PromptMarkup.of(emptyText);
        }
        StringBuilder out = new StringBuilder();
        for (Unit u : inDocumentOrder(units)) {
            append(out, u, "");
        }
        return PromptMarkup.of(out.toString().stripTrailing());
    }

    static void append(StringBuilder out, Unit u, String attributes) {
        out.append("<passage id=\"").append(u.id()).append('"');
        if (u.session() != null) {
            out.append(" session=\"")
                    .append(NumberedMarkup.attribute(u.session()))
                    .append('"');
        }
        out.append(attributes)
                .append(">\n")
                .append(PromptMarkup.data(u.hit().text()))
                .append("\n</passage>\n");
    }

    private String session(SearchHit hit) {
        return sessions.computeIfAbsent(
                        hit.documentId() + ":" + hit.pageOrdinal(),
                        k -> retriever
                                .sessionHeader(hit.documentId(), hit.pageOrdinal())
                                .map(Retriever.SessionHeader::text))
                .orElse(null);
    }
}
