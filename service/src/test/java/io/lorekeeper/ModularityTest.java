package io.lorekeeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.ApplicationModule;
import org.springframework.modulith.core.ApplicationModules;

import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;

import io.lorekeeper.strategy.AnswerStrategy;

/**
 * Package-by-feature rules: no cycles between modules, no module reaching into another's internals,
 * and every module's dependencies declared ({@code allowedDependencies}) and kept to. Which tables a
 * module may touch is {@link TableOwnershipTest}'s.
 */
class ModularityTest {

    private static final Pattern TEST_CLASS = Pattern.compile(".*Test(\\$[^/]*)?\\.class");

    /**
     * Production classes, and the modules of the test sources: a package right under
     * {@code io.lorekeeper} whose own {@code package-info} is in the test sources (the example strategy,
     * {@code io.lorekeeper.example}), less its tests, which must keep every rule a deployed module keeps.
     * ArchUnit's own "no tests" option recognises {@code target/test-classes} but not the test classes
     * of a build run with {@code -Dlk.build.dir=target-x}; tests may wire modules together (a document
     * test driving a memory test double) without that being a cycle.
     */
    private static final ImportOption PRODUCTION_AND_TEST_MODULES = location ->
            !location.contains("/test-classes/") || (!location.matches(TEST_CLASS) && inTestModule(location));

    private static boolean inTestModule(Location location) {
        String uri = location.asURI().toString();
        int base = uri.indexOf(BASE);
        int end = base < 0 ? -1 : uri.indexOf('/', base + BASE.length());
        if (end < 0 || !uri.startsWith("file:")) {
            return false;
        }
        return Files.exists(Path.of(URI.create(uri.substring(0, end) + "/package-info.class")));
    }

    private static final String BASE = "/io/lorekeeper/";

    private static final ApplicationModules MODULES =
            ApplicationModules.of(LorekeeperApplication.class, PRODUCTION_AND_TEST_MODULES);

    @Test
    void modulesRespectTheirBoundaries() {
        MODULES.verify();
    }

    /**
     * Without a declaration Spring Modulith allows a module any dependency, and an open module
     * exposes its internals: neither may slip in unnoticed.
     */
    @Test
    void everyModuleDeclaresWhatItMayDependOnAndNoneIsOpen() throws Exception {
        List<String> undeclared = new ArrayList<>();
        for (var module : MODULES) {
            String base = module.getBasePackage().getName();
            ApplicationModule declared =
                    Class.forName(base + ".package-info").getPackage().getAnnotation(ApplicationModule.class);
            if (declared == null
                    || declared.type() == ApplicationModule.Type.OPEN
                    || Arrays.asList(declared.allowedDependencies()).contains(ApplicationModule.OPEN_TOKEN)) {
                undeclared.add(module.getIdentifier()
                        + (declared != null && declared.type() == ApplicationModule.Type.OPEN ? " (open)" : ""));
            }
        }
        assertThat(undeclared)
                .as("modules without @ApplicationModule(allowedDependencies = ...)")
                .isEmpty();
    }

    /**
     * The answering methods, one module each behind the {@code strategy} SPI: the modules that hold a
     * concrete {@link AnswerStrategy}, found by the SPI, so that a new strategy cannot escape the rules.
     */
    private static Set<String> strategies() {
        Set<String> found = new TreeSet<>();
        for (var module : MODULES) {
            boolean implementsTheSpi = module.getBasePackage().stream()
                    .anyMatch(c -> c.isAssignableTo(AnswerStrategy.class)
                            && !c.isInterface()
                            && !c.getModifiers().contains(JavaModifier.ABSTRACT));
            if (implementsTheSpi && !module.getIdentifier().toString().equals(SPI)) {
                found.add(module.getIdentifier().toString());
            }
        }
        return found;
    }

    /** The module of the SPI itself. */
    private static final String SPI = "strategy";

    /**
     * A declared dependency that nothing uses is a door left open: the declarations must be exactly
     * what the code needs, so that deleting one from a package-info fails {@link #modulesRespectTheirBoundaries}.
     */
    @Test
    void everyDeclaredDependencyIsUsed() throws Exception {
        List<String> unused = new ArrayList<>();
        for (var module : MODULES) {
            Set<String> used = new TreeSet<>();
            module.getDirectDependencies(MODULES)
                    .uniqueModules()
                    .forEach(m -> used.add(m.getIdentifier().toString()));
            for (String declared : declaredDependencies(module.getBasePackage().getName())) {
                String[] target = declared.split("::");
                boolean isUsed = target.length == 1
                        ? used.contains(declared)
                        : usesNamedInterface(module, target[0].trim(), target[1].trim());
                if (!isUsed) {
                    unused.add(module.getIdentifier() + " -> " + declared);
                }
            }
        }
        assertThat(unused).as("declared but unused dependencies").isEmpty();
    }

    /** Whether a class of the module uses a type of that module's named interface ("document::search"). */
    private static boolean usesNamedInterface(
            org.springframework.modulith.core.ApplicationModule module, String target, String name) {
        var namedInterface = MODULES.getModuleByName(target)
                .flatMap(m -> m.getNamedInterfaces().getByName(name))
                .orElseThrow(() -> new AssertionError("no named interface " + target + "::" + name));
        return module.getBasePackage().stream()
                .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
                .anyMatch(d -> namedInterface.contains(d.getTargetClass()));
    }

    /** Strategies share only the SPI: one strategy's internals never leak into another's. */
    @Test
    void strategiesDependOnTheSpiNotOnEachOther() throws Exception {
        Set<String> strategies = strategies();
        assertThat(strategies)
                .as("the example strategy of the test sources is found by the SPI, as a new one would be")
                .contains("example");
        for (String strategy : strategies) {
            assertThat(declaredDependencies("io.lorekeeper." + strategy))
                    .as(strategy + "'s declared dependencies")
                    .contains(SPI)
                    .doesNotContainAnyElementsOf(strategies);
        }
    }

    private static List<String> declaredDependencies(String basePackage) throws ClassNotFoundException {
        ApplicationModule declared =
                Class.forName(basePackage + ".package-info").getPackage().getAnnotation(ApplicationModule.class);
        return declared == null ? List.of() : Arrays.asList(declared.allowedDependencies());
    }
}
