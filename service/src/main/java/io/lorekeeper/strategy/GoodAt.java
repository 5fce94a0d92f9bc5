package io.lorekeeper.strategy;

import java.util.Map;

/**
 * A kind of question a strategy declares it is good at, for {@code auto}.
 *
 * @param aptitude the kind of question and documents
 * @param rank     the order auto tries it in among the strategies that declare the same aptitude, lowest
 *                 first; two strategies may not declare one aptitude at the same rank ({@link Aptitude} lists
 *                 the ranks taken)
 * @param options  the options auto runs it with for this kind (say, a variant that reads a stored memory
 *                 instead of building one); the question's own options for the strategy are laid over them
 */
public record GoodAt(Aptitude aptitude, int rank, Map<String, Object> options) {

    public GoodAt {
        if (aptitude == null) {
            throw new IllegalArgumentException("aptitude is required");
        }
        options = Map.copyOf(options);
    }

    public static GoodAt of(Aptitude aptitude, int rank) {
        return new GoodAt(aptitude, rank, Map.of());
    }
}
