package io.lorekeeper.question;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.Documents;
import io.lorekeeper.document.MemoryState;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.reasoning.AnswerStrategy;
import io.lorekeeper.reasoning.QuestionOptions;

/**
 * Whether a question's documents have the memories its strategy declares: the ones it needs (a
 * question waits while one is being built and is refused when one failed or was skipped) and the
 * ones it can do without (it then runs degraded, and says so).
 */
@Component
class MemoryReadiness {

    private final Documents documents;

    MemoryReadiness(Documents documents) {
        this.documents = documents;
    }

    /**
     * @param waitingFor  needed memories still being built
     * @param unavailable needed memories that failed or were skipped
     * @param degraded    optional memories that are not ready
     */
    record Report(List<MemoryState> waitingFor, List<MemoryState> unavailable, List<MemoryState> degraded) {}

    Report check(AnswerStrategy strategy, QuestionOptions options, List<UUID> documentIds) {
        List<MemoryState> needed = documents.memories(documentIds, strategy.requiredMemories(options));
        List<MemoryState> optional = documents.memories(documentIds, strategy.optionalMemories(options));
        return new Report(
                needed.stream().filter(MemoryState::building).toList(),
                needed.stream().filter(m -> !m.ready() && !m.building()).toList(),
                optional.stream().filter(m -> !m.ready()).toList());
    }

    /** Refuses a question now when a memory it needs cannot be had without someone building it. */
    void requireBuildable(AnswerStrategy strategy, QuestionOptions options, List<UUID> documentIds) {
        List<MemoryState> unavailable = check(strategy, options, documentIds).unavailable();
        if (!unavailable.isEmpty()) {
            throw notReady(strategy.name(), unavailable);
        }
    }

    /** A 409 about the first unavailable memory, whose reindex call builds every memory that document lacks. */
    static ApiProblem notReady(String strategy, List<MemoryState> unavailable) {
        MemoryState memory = unavailable.getFirst();
        List<String> stages = unavailable.stream()
                .filter(m -> m.documentId().equals(memory.documentId()))
                .map(MemoryState::stage)
                .distinct()
                .toList();
        String howToBuild = "POST /v1/documents/" + memory.documentId() + "/reindex with {\"stages\": ["
                + String.join(", ", stages.stream().map(s -> "\"" + s + "\"").toList()) + "]}";
        String detail = "strategy '" + strategy + "' needs the '" + memory.stage() + "' memory of document "
                + memory.documentId()
                + ", which is " + memory.status() + (memory.reason() == null ? "" : ": " + memory.reason())
                + (memory.retryAt() == null ? "" : "; it is tried again at " + memory.retryAt())
                + (stages.size() > 1
                        ? " (it also lacks " + String.join(", ", stages.subList(1, stages.size())) + ")"
                        : "")
                + ". " + howToBuild + " builds " + (stages.size() > 1 ? "them" : "it")
                + " now, or ask with a strategy that does not need "
                + (stages.size() > 1 ? "them" : "it") + ".";
        ApiProblem problem = ApiProblem.conflict("memory-not-ready", "Memory not ready", detail, "documentIds")
                .with("documentId", memory.documentId())
                .with("stage", memory.stage())
                .with("state", memory.status())
                .with("missing", stages)
                .with("howToBuild", howToBuild);
        if (memory.reason() != null) {
            problem.with("reason", memory.reason());
        }
        if (memory.retryAt() != null) {
            problem.with("retryAt", memory.retryAt().toString());
        }
        return problem;
    }

    static List<Map<String, Object>> describe(List<MemoryState> memories) {
        return memories.stream()
                .map(m -> {
                    Map<String, Object> out = new java.util.LinkedHashMap<>();
                    out.put("documentId", m.documentId());
                    out.put("stage", m.stage());
                    out.put("state", m.status());
                    if (m.reason() != null) {
                        out.put("reason", m.reason());
                    }
                    return out;
                })
                .toList();
    }
}
