package io.lorekeeper.support;

import java.nio.file.Path;

/**
 * The service module's build folder (service/target, or the one -Dlk.build.dir names), where tests write
 * their output. Surefire passes it as lorekeeper.build.dir; tests run from the repository root.
 */
public final class BuildDirectory {

    public static final Path PATH = Path.of(System.getProperty("lorekeeper.build.dir", "service/target"));

    private BuildDirectory() {}
}
