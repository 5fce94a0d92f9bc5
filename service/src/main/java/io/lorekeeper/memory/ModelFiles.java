package io.lorekeeper.memory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Where an in-process sentence-embedding model's two files are: the ONNX graph and the Hugging Face
 * {@code tokenizer.json}. {@code location} is empty for the bundled bge-small-en-v1.5; {@code
 * classpath:base} for {@code base.onnx} and {@code base-tokenizer.json} on the class path (the form
 * the langchain4j model jars use); anything else is a folder holding one {@code .onnx} file and a
 * {@code tokenizer.json} (or one file named {@code *tokenizer*.json}), as a model exported for ONNX
 * Runtime is laid out.
 *
 * @param name the model's name as the stored vectors record it: the folder's or base's name unless set
 */
public record ModelFiles(String name, Supplier<InputStream> model, Supplier<InputStream> tokenizer) {

    static final String BUNDLED = "bge-small-en-v1.5";
    private static final String BUNDLED_BASE = "bge-small-en-v1.5-q";

    static ModelFiles resolve(String location, String name) {
        if (location == null || location.isBlank()) {
            return onClassPath(BUNDLED_BASE, named(name, BUNDLED));
        }
        if (location.startsWith("classpath:")) {
            String base = location.substring("classpath:".length());
            return onClassPath(base, named(name, base));
        }
        ModelFiles files = inFolder(location, "lorekeeper.embedding.model.location");
        return new ModelFiles(named(name, files.name()), files.model(), files.tokenizer());
    }

    /**
     * The model in {@code folder}, named by the folder; {@code property} is the setting that named the
     * folder, for the message when it is not a model's folder.
     */
    public static ModelFiles inFolder(String folder, String property) {
        Path path = Path.of(folder);
        if (!Files.isDirectory(path)) {
            throw new IllegalStateException(property + ": " + path.toAbsolutePath() + " is not a folder");
        }
        Path model = only(path, p -> p.toString().endsWith(".onnx"), "an .onnx model file", property);
        Path tokenizer = Files.isRegularFile(path.resolve("tokenizer.json"))
                ? path.resolve("tokenizer.json")
                : only(
                        path,
                        p -> p.getFileName().toString().matches(".*tokenizer.*\\.json"),
                        "a tokenizer.json",
                        property);
        return new ModelFiles(path.toAbsolutePath().normalize().getFileName().toString(), open(model), open(tokenizer));
    }

    private static String named(String name, String otherwise) {
        return name == null || name.isBlank() ? otherwise : name;
    }

    private static ModelFiles onClassPath(String base, String name) {
        return new ModelFiles(name, resource(base + ".onnx"), resource(base + "-tokenizer.json"));
    }

    private static Supplier<InputStream> resource(String resource) {
        return () -> {
            InputStream in = ModelFiles.class.getClassLoader().getResourceAsStream(resource);
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the class path");
            }
            return in;
        };
    }

    private static Supplier<InputStream> open(Path file) {
        return () -> {
            try {
                return Files.newInputStream(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    private static Path only(Path folder, java.util.function.Predicate<Path> wanted, String what, String property) {
        List<Path> found;
        try (Stream<Path> files = Files.list(folder)) {
            found = files.filter(Files::isRegularFile).filter(wanted).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (found.size() != 1) {
            throw new IllegalStateException(property + ": " + folder.toAbsolutePath() + " must hold exactly one " + what
                    + ", found " + found.size());
        }
        return found.getFirst();
    }
}
