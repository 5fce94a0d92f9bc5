package io.lorekeeper.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** Missing shared data skips a test on a developer's machine and fails it under CI, naming the folder. */
class SharedDataTest {

    @Test
    void missingDataFailsUnderCiAndNamesTheFolder(@TempDir Path dir) {
        Path root = dir.resolve("shared").resolve("data");

        Throwable thrown = catchThrowable(() -> SharedData.require(root, "novels/moby.txt", true));

        assertThat(thrown)
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining(root.toAbsolutePath().normalize().toString())
                .hasMessageContaining(root.resolve("novels/moby.txt")
                        .toAbsolutePath()
                        .normalize()
                        .toString())
                .hasMessageContaining("CI=true");
    }

    @Test
    void missingDataSkipsOutsideCi(@TempDir Path dir) {
        Throwable thrown = catchThrowable(() -> SharedData.require(dir.resolve("data"), "locomo/x.json", false));

        assertThat(thrown).isInstanceOf(TestAbortedException.class).hasMessageContaining("locomo");
    }

    @Test
    void presentDataIsReturned(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("novels"));

        assertThat(SharedData.require(dir, "novels", true)).isEqualTo(dir.resolve("novels"));
    }
}
