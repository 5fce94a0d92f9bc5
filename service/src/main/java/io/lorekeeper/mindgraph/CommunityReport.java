package io.lorekeeper.mindgraph;

import java.util.List;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * What the model writes about one community, once per graph: the paper's detail view is an
 * executive summary and 5 to 10 findings. More than 10 are cut; fewer are kept, since a small
 * community may not hold five.
 */
record CommunityReport(
        @NotBlank String title,
        @NotNull @DecimalMin("0") @DecimalMax("10") Double rating,
        @NotBlank String summary,
        @NotNull @Size(max = 10) List<String> findings) {}
