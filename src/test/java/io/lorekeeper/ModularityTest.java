package io.lorekeeper;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;

import com.tngtech.archunit.core.importer.ImportOption;

/** Package-by-feature rules: no cycles between modules, and no module reaching into another's internals. */
class ModularityTest {

    /**
     * Production classes only. ArchUnit's own "no tests" option recognises {@code target/test-classes}
     * but not the test classes of a build run with {@code -Dlk.build.dir=target-x}; tests may wire
     * modules together (a document test driving a memory test double) without that being a cycle.
     */
    private static final ImportOption PRODUCTION_ONLY = location -> !location.contains("/test-classes/");

    @Test
    void modulesRespectTheirBoundaries() {
        ApplicationModules.of(LorekeeperApplication.class, PRODUCTION_ONLY).verify();
    }
}
