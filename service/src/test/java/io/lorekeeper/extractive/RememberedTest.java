package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class RememberedTest {

    private final List<String> derived = new ArrayList<>();

    private final Remembered<Integer> lengths = new Remembered<>(2, text -> {
        derived.add(text);
        return text.length();
    });

    @Test
    void aTextIsDerivedOnceAndThenRemembered() {
        assertThat(lengths.of("Pip")).isEqualTo(3);
        assertThat(lengths.of(new String("Pip")))
                .as("an equal text, not the same instance")
                .isEqualTo(3);

        assertThat(derived).containsExactly("Pip");
    }

    @Test
    void pastItsBoundItForgetsEverythingAndStartsAgain() {
        lengths.of("Pip");
        lengths.of("Joe");
        lengths.of("Estella"); // three held: more than the bound of two, still all remembered
        lengths.of("Joe");
        lengths.of("Biddy"); // past the bound: emptied first, then remembered alone
        lengths.of("Biddy");
        lengths.of("Joe");

        assertThat(derived).containsExactly("Pip", "Joe", "Estella", "Biddy", "Joe");
    }
}
