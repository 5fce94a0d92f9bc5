package io.lorekeeper.eval;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.springframework.stereotype.Component;

import io.lorekeeper.evaluator.EvalItem;
import io.lorekeeper.platform.ApiProblem;

/**
 * The server's evaluation data folder, as a caller of {@code POST /v1/evaluations} may reach it: a
 * path is resolved with every symbolic link followed, and it, and everything a loader reads beside
 * it (a folder's files, the story next to a ComoRAG question file), must lie inside the folder's own
 * real path. Checking the normalised name alone let {@code data/link.jsonl -> /etc/passwd} through.
 * The folder is {@code lorekeeper.eval.data-dir}, read here once for the controller that checks a
 * request and the job that runs it.
 */
@Component
final class DataFolder {

    /** Entries of a folder dataset looked at; deeper trees are not datasets. */
    private static final int MAX_DEPTH = 4;

    private final Path root;

    DataFolder(EvalSettings settings) {
        this.root = Path.of(settings.dataDir()).toAbsolutePath().normalize();
    }

    /** The items an evaluation runs: inline, or loaded from its file in this folder. */
    List<EvalItem> items(StartEvaluation request) {
        return request.load(root);
    }

    /**
     * The real path of {@code relative} inside {@code dataDir}, or a problem on {@code path} that says
     * nothing of what lies outside the folder.
     *
     * @param withSiblings whether the loader reads the files beside a file it is given (ComoRAG's folder)
     */
    static Path resolve(Path dataDir, String relative, boolean withSiblings) {
        Path root;
        Path file;
        try {
            root = dataDir.toRealPath();
            file = dataDir.resolve(relative).normalize().toRealPath();
        } catch (IOException | RuntimeException e) {
            throw missing(relative);
        }
        if (!file.startsWith(root)) {
            throw outside(relative);
        }
        Path tree = Files.isDirectory(file) ? file : withSiblings ? file.getParent() : null;
        if (tree != null) {
            try (Stream<Path> entries = Files.walk(tree, MAX_DEPTH)) {
                entries.forEach(entry -> {
                    if (!real(entry).startsWith(root)) {
                        throw outside(relative);
                    }
                });
            } catch (IOException | UncheckedIOException e) {
                throw missing(relative);
            }
        }
        return file;
    }

    private static Path real(Path entry) {
        try {
            return entry.toRealPath();
        } catch (IOException e) {
            // a dangling link: the name itself is all there is, and it is not a place to read from
            return entry.toAbsolutePath().getRoot().resolve("dangling-link");
        }
    }

    private static ApiProblem missing(String relative) {
        return ApiProblem.invalid("path", "no such file or folder in the data folder: " + relative);
    }

    private static ApiProblem outside(String relative) {
        return ApiProblem.invalid(
                "path", relative + " leads outside the data folder; only files inside it are read, links followed");
    }

    /**
     * A loader's error without the words it quotes from the file (a parser names the token it could
     * not read), so that a problem never shows file content.
     */
    static String withoutContent(String message) {
        if (message == null) {
            return "unreadable";
        }
        String firstLine = message.lines().findFirst().orElse("");
        return firstLine.replaceAll("'[^']*'", "'…'").replaceAll("\"[^\"]*\"", "\"…\"");
    }
}
