package io.lorekeeper.question;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.Documents;
import io.lorekeeper.document.MemoryBuilds;
import io.lorekeeper.document.MemoryState;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.strategy.AnswerStrategy;
import io.lorekeeper.strategy.QuestionOptions;

/**
 * Whether a question's documents have the memories its strategy declares: the ones it needs (a
 * question waits while one is being built, or failed with a retry scheduled; starts building one
 * skipped because it is built on demand, unless {@code options.buildMemories} is false; and is
 * refused when one failed for good or was skipped for another reason) and the ones it can do without
 * (it then runs degraded, and says so).
 */
@Component
class MemoryReadiness {

    private final Documents documents;
    private final MemoryBuilds builds;

    MemoryReadiness(Documents documents, MemoryBuilds builds) {
        this.documents = documents;
        this.builds = builds;
    }

    /**
     * @param waitingFor  needed memories still being built
     * @param retrying    needed memories that failed and have another attempt scheduled
     * @param buildable   needed memories skipped because they are built on demand, which asking builds
     * @param unavailable needed memories that failed for good, or were skipped and would not be built
     * @param degraded    optional memories that are not ready
     */
    record Report(
            List<MemoryState> waitingFor,
            List<MemoryState> retrying,
            List<MemoryState> buildable,
            List<MemoryState> unavailable,
            List<MemoryState> degraded) {}

    Report check(AnswerStrategy strategy, QuestionOptions options, List<UUID> documentIds) {
        List<MemoryState> needed = documents.memories(documentIds, strategy.requiredMemories(options));
        List<MemoryState> optional = documents.memories(documentIds, strategy.optionalMemories(options));
        List<MemoryState> buildable = needed.stream().filter(builds::buildable).toList();
        return new Report(
                needed.stream().filter(MemoryState::building).toList(),
                needed.stream().filter(MemoryState::retrying).toList(),
                buildable,
                needed.stream()
                        .filter(m -> !m.ready() && !m.building() && !m.retrying() && !buildable.contains(m))
                        .toList(),
                optional.stream().filter(m -> !m.ready()).toList());
    }

    /**
     * Refuses a question now when a memory it needs cannot be had without someone building it: one
     * that failed (a scheduled retry included: the 409 says when), one skipped that would not be built,
     * and, with {@code options.buildMemories} false, one that is built only on demand. Returns the
     * on-demand memories the question may start building (none when it may not).
     */
    List<MemoryState> requireBuildable(AnswerStrategy strategy, QuestionOptions options, List<UUID> documentIds) {
        Report report = check(strategy, options, documentIds);
        List<MemoryState> refused = new java.util.ArrayList<>(report.unavailable());
        refused.addAll(report.retrying());
        if (!options.buildMemories()) {
            refused.addAll(report.buildable());
        }
        if (!refused.isEmpty()) {
            throw notReady(strategy.name(), refused);
        }
        return report.buildable();
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

    /** The trace event of a question that started building the memories its strategy needs. */
    static RunEvent.MemoryBuild buildEvent(String strategy, List<MemoryState> started) {
        return new RunEvent.MemoryBuild(
                started.stream()
                        .map(m -> new RunEvent.Memory(m.documentId(), m.stage()))
                        .toList(),
                "strategy '" + strategy + "' needs "
                        + (started.size() == 1 ? "this memory, which is" : "these memories, which are")
                        + " built on demand; asking builds them (options.buildMemories false refuses instead)");
    }
}
