package io.lorekeeper.evaluator;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The evaluation data beside the repository ({@code ../shared/data}), as the service's tests find it
 * ({@code io.lorekeeper.support.SharedData}): missing, a test is skipped, or failed under {@code CI=true}.
 * Tests run from the repository root.
 */
final class SharedData {

    static final Path ROOT = Path.of("..", "shared", "data");

    private SharedData() {}

    static Path require(String relative) {
        Path path = ROOT.resolve(relative);
        if (!Files.exists(path)) {
            String message = "this test needs " + path.toAbsolutePath().normalize() + " from the shared data folder";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(message + "; CI=true, so a missing data folder fails the run instead of skipping");
            }
            Assumptions.abort(message);
        }
        return path;
    }
}
