package io.lorekeeper.reasoning.mindgraph;

import java.util.List;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

/** What the model writes about one community, once per graph. */
record CommunityReport(@NotBlank String title, @NotNull @DecimalMin("0") @DecimalMax("10") Double rating, @NotBlank String summary,
        @NotNull List<String> findings) {
}
