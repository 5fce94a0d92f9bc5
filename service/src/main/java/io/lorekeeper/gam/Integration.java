package io.lorekeeper.gam;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

/**
 * The researcher's running notes for the question: a summary and facts with the pages they come
 * from. {@code thinking}, the integrator's reasoning before it rewrites the notes, is traced but
 * never rendered into the notes the later steps read.
 */
record Integration(
        String thinking, @NotNull String summary, @NotNull List<@Valid Fact> facts) {

    record Fact(@NotNull String fact, @NotNull List<@Valid PageRef> sources) {}

    static Integration empty() {
        return new Integration(null, "", List.of());
    }

    String render() {
        if (summary.isBlank() && facts.isEmpty()) {
            return "(nothing gathered yet)";
        }
        StringBuilder out = new StringBuilder(summary.strip()).append('\n');
        for (Fact f : facts) {
            out.append("- ")
                    .append(f.fact().strip())
                    .append(" [")
                    .append(String.join(
                            ", ", f.sources().stream().map(PageRef::label).toList()))
                    .append("]\n");
        }
        return out.toString().strip();
    }
}
