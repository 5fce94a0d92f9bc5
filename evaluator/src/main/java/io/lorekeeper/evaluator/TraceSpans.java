package io.lorekeeper.evaluator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.lorekeeper.evaluator.Metrics.DocSpan;
import tools.jackson.databind.JsonNode;

/**
 * What a question's trace says about the context its strategy used and what it cost. Context: every
 * span ({@code start}, {@code end}, optional {@code documentId}) inside the payloads of the
 * {@code retrieve}, {@code bridge} and {@code context} events (extractive: hits and bridge hits; rag:
 * the passages; gam: the excerpts handed to the answerer). A service names its events by family
 * ({@code rag.retrieve}, {@code extractive.bridge}, {@code gam.context}, {@code run.status}); one
 * from before the typed events names them bare ({@code retrieve}, {@code status}): both are read.
 * Cost: {@code llmCalls} and {@code llmTokens} of the final {@code status} event, for services whose question view has no
 * {@code usage}. Compaction: the {@code compaction} a strategy records itself (MindGraph's
 * {@code compaction} event: its answerer's first-call input ÷ document tokens).
 */
final class TraceSpans {

    private TraceSpans() {}

    static final Set<String> CONTEXT_EVENTS = Set.of("retrieve", "bridge", "context");

    static List<DocSpan> context(JsonNode trace, String defaultDocument) {
        List<DocSpan> out = new ArrayList<>();
        for (JsonNode event : trace.path("events")) {
            if (CONTEXT_EVENTS.contains(name(event))) {
                collect(event.path("payload"), defaultDocument, out);
            }
        }
        return out;
    }

    /** The event's name without its family: {@code rag.retrieve} and {@code retrieve} are both {@code retrieve}. */
    static String name(JsonNode event) {
        String type = event.path("type").asString("");
        return type.substring(type.lastIndexOf('.') + 1);
    }

    private static void collect(JsonNode node, String defaultDocument, List<DocSpan> out) {
        if (node.isObject()) {
            if (node.path("start").isNumber() && node.path("end").isNumber()) {
                out.add(new DocSpan(
                        node.path("documentId").asString(defaultDocument),
                        node.get("start").asInt(),
                        node.get("end").asInt()));
            }
            for (String name : node.propertyNames()) {
                collect(node.get(name), defaultDocument, out);
            }
        } else if (node.isArray()) {
            node.forEach(child -> collect(child, defaultDocument, out));
        }
    }

    /**
     * The compaction ratio the strategy recorded for the document (the event's {@code documentId}),
     * or for any document when no event names this one; null when the strategy records none.
     */
    static Double compaction(JsonNode trace, String documentId) {
        Double any = null;
        for (JsonNode event : trace.path("events")) {
            JsonNode p = event.path("payload");
            if (p.path("compaction").isNumber()) {
                if (documentId.equals(p.path("documentId").asString(""))) {
                    return p.get("compaction").asDouble();
                }
                if (any == null) {
                    any = p.get("compaction").asDouble();
                }
            }
        }
        return any;
    }

    /**
     * The features a strategy based its confidence on (an event's {@code confidenceFeatures} object of
     * numbers), for fitting a calibrated confidence; null when it recorded none.
     */
    static java.util.Map<String, Double> confidenceFeatures(JsonNode trace) {
        return features(trace, "confidenceFeatures");
    }

    /**
     * The features the extractive strategy based a passage answer's confidence on (its
     * {@code extractive.passages} event), for fitting that confidence; null when it gave a short answer.
     */
    /** The payload of the trace's first event of {@code type}; null when it has none. */
    static JsonNode payload(JsonNode trace, String type) {
        for (JsonNode event : trace.path("events")) {
            if (type.equals(event.path("type").asString())) {
                return event.path("payload");
            }
        }
        return null;
    }

    static java.util.Map<String, Double> passageFeatures(JsonNode trace) {
        return features(trace, "passageFeatures");
    }

    private static java.util.Map<String, Double> features(JsonNode trace, String field) {
        for (JsonNode event : trace.path("events")) {
            JsonNode f = event.path("payload").path(field);
            if (f.isObject()) {
                java.util.Map<String, Double> out = new java.util.TreeMap<>();
                for (java.util.Map.Entry<String, JsonNode> feature : f.properties()) {
                    if (feature.getValue().isNumber()) {
                        out.put(feature.getKey(), feature.getValue().asDouble());
                    }
                }
                return out;
            }
        }
        return null;
    }

    /**
     * The answer candidates the extractive strategy recorded ({@code extractive.candidates}); null when the trace
     * has none (another strategy, or a service from before the event). Non-numeric features are left out.
     */
    static AnswerCandidates answerCandidates(JsonNode trace) {
        for (JsonNode event : trace.path("events")) {
            if (!event.path("type").asString("").equals("extractive.candidates")) {
                continue;
            }
            JsonNode p = event.path("payload");
            List<AnswerCandidates.AnswerCandidate> candidates = new ArrayList<>();
            for (JsonNode c : p.path("candidates")) {
                Map<String, Double> features = new TreeMap<>();
                for (Map.Entry<String, JsonNode> f : c.path("features").properties()) {
                    if (f.getValue().isNumber()) {
                        features.put(f.getKey(), f.getValue().asDouble());
                    }
                }
                candidates.add(new AnswerCandidates.AnswerCandidate(
                        c.path("text").asString(""), c.path("source").asString(null), features));
            }
            return new AnswerCandidates(
                    candidates, p.path("chosen").asInt(-1), p.path("answered").asBoolean(false));
        }
        return null;
    }

    /** {calls, tokens} from the last status event that carries them (0 when none does). */
    static long[] usage(JsonNode trace) {
        long calls = 0;
        long tokens = 0;
        for (JsonNode event : trace.path("events")) {
            JsonNode p = event.path("payload");
            if (name(event).equals("status") && p.has("llmCalls")) {
                calls = p.path("llmCalls").asLong();
                tokens = p.path("llmTokens").asLong();
            }
        }
        return new long[] {calls, tokens};
    }
}
