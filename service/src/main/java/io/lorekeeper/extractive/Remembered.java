package io.lorekeeper.extractive;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What was derived from a text (a word's stem, a sentence's terms), kept across questions: every
 * question derives it again for the same few thousand words and sentences of its documents. Emptied
 * when it holds more than its bound, which keeps memory flat without bookkeeping per entry.
 */
final class Remembered<V> {

    private final int bound;
    private final Function<String, V> derive;
    private final Map<String, V> values = new ConcurrentHashMap<>();

    Remembered(int bound, Function<String, V> derive) {
        this.bound = bound;
        this.derive = derive;
    }

    V of(String text) {
        V known = values.get(text);
        if (known != null) {
            return known;
        }
        if (values.size() > bound) {
            values.clear();
        }
        return values.computeIfAbsent(text, derive);
    }
}
