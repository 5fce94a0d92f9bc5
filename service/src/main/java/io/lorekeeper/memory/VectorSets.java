package io.lorekeeper.memory;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.springframework.stereotype.Component;

/** Every module's {@link VectorSet}, in the order a change fills them. */
@Component
class VectorSets {

    private final List<VectorSet> sets;

    VectorSets(List<VectorSet> sets) {
        this.sets =
                sets.stream().sorted(Comparator.comparingInt(VectorSet::order)).toList();
    }

    List<VectorSet> inOrder() {
        return sets;
    }

    /** The tables whose vectors the sets fill. */
    List<String> filled() {
        return sets.stream().flatMap(s -> s.tables().stream()).distinct().toList();
    }

    /** Every table a change adds a next column to: those the sets fill and those they drop. */
    List<String> all() {
        return sets.stream()
                .flatMap(s -> Stream.concat(s.tables().stream(), s.dropped().stream()))
                .distinct()
                .toList();
    }
}
