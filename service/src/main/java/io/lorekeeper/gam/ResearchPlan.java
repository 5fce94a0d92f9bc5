package io.lorekeeper.gam;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * The planner's output: its reasoning first (the paper's planner thinks before it plans; kept in
 * the trace, never in the notes), what the request needs, and the searches to run for it.
 */
record ResearchPlan(
        String thinking,
        @NotNull List<String> informationNeeds,
        @NotNull @Size(max = 10) List<String> keywordQueries,
        @NotNull @Size(max = 10) List<String> vectorQueries,
        @NotNull @Size(max = 20) List<@Valid PageRef> pages) {
    /** The request itself as one keyword and one vector query: the plan of a round whose planner reply was unusable. */
    static ResearchPlan ofRequest(String request) {
        return new ResearchPlan(null, List.of(request), List.of(request), List.of(request), List.of());
    }
}
