package io.lorekeeper.support;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The evaluation data beside the repository ({@code ../shared/data}: novels, LoCoMo, LooGLE...),
 * which some tests read. A developer without it gets those tests skipped; a CI run ({@code CI=true})
 * without it fails them, naming the folder, so that a green CI run cannot hide a skipped
 * end-to-end test.
 */
public final class SharedData {

    public static final Path ROOT = Path.of("..", "shared", "data");

    private SharedData() {}

    /** {@code relative} under {@link #ROOT}, which must exist: skips the test when it does not, fails it under CI. */
    public static Path require(String relative) {
        return require(ROOT, relative, underCi());
    }

    static Path require(Path root, String relative, boolean ci) {
        Path path = root.resolve(relative);
        if (!Files.exists(path)) {
            String message = "this test needs " + path.toAbsolutePath().normalize() + " from the shared data folder "
                    + root.toAbsolutePath().normalize() + " (check it out beside the repository)";
            if (ci) {
                Assertions.fail(message + "; CI=true, so a missing data folder fails the run instead of skipping");
            }
            Assumptions.abort(message);
        }
        return path;
    }

    static boolean underCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }
}
