package io.lorekeeper;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;

/** Package-by-feature rules: no cycles between modules, and no module reaching into another's internals. */
class ModularityTest {

    @Test
    void modulesRespectTheirBoundaries() {
        ApplicationModules.of(LorekeeperApplication.class).verify();
    }
}
