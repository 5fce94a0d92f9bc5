package io.lorekeeper.extractive;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * A word list of the extractive answerer, kept as a resource ({@code extractive/words/<name>.txt}, one
 * word a line, {@code #} starting a comment) so that the code reads as rules and the lists can be
 * read and extended as lists.
 */
final class WordList {

    private WordList() {}

    static Set<String> load(String name) {
        String resource = "extractive/words/" + name + ".txt";
        try (InputStream in = WordList.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing word list " + resource);
            }
            return Set.copyOf(new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
