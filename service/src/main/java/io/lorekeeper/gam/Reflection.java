package io.lorekeeper.gam;

import java.util.List;

import jakarta.validation.constraints.NotNull;

/** Whether the notes are enough, and if not, what to search for next; reasoning first, kept out of the notes. */
record Reflection(
        String thinking,
        @NotNull Boolean enough,
        String missing,
        @NotNull List<String> followUps) {}
