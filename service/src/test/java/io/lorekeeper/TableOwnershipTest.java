package io.lorekeeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.lorekeeper.platform.OwnsTables;

/**
 * Modules own their tables: every table the migrations create is declared by exactly one module
 * ({@link OwnsTables} on its package-info), and no module's SQL names a table another module owns.
 */
class TableOwnershipTest {

    private static final Path MIGRATIONS = Path.of("service", "db", "migration");
    private static final Path SOURCES = Path.of("service", "src", "main", "java");
    private static final String BASE = LorekeeperApplication.class.getPackageName();

    @Test
    void everyTableHasExactlyOneOwner() throws Exception {
        Set<String> tables = TableOwnership.tablesOf(MIGRATIONS);
        assertThat(tables).as("tables created by %s", MIGRATIONS).isNotEmpty();
        List<String> problems = new ArrayList<>();
        Map<String, String> owners = TableOwnership.ownerOfTable(declaredOwners(), problems);
        Set<String> unowned = new TreeSet<>(tables);
        unowned.removeAll(owners.keySet());
        unowned.forEach(table -> problems.add("table " + table + " has no owner: add it to one module's @OwnsTables"));
        owners.keySet().stream()
                .filter(t -> !tables.contains(t))
                .forEach(t -> problems.add(
                        "module " + owners.get(t) + " declares table " + t + ", which no migration creates"));
        assertThat(problems).isEmpty();
    }

    @Test
    void noModuleTouchesAnotherModulesTables() throws Exception {
        List<String> problems = new ArrayList<>();
        Map<String, String> owners = TableOwnership.ownerOfTable(declaredOwners(), problems);
        assertThat(problems).isEmpty();
        assertThat(TableOwnership.violations(SOURCES, BASE, owners))
                .map(TableOwnership.Violation::toString)
                .isEmpty();
    }

    /** Each module's declared tables, read from the {@link OwnsTables} of its package-info. */
    static Map<String, List<String>> declaredOwners() throws Exception {
        Map<String, List<String>> byModule = new TreeMap<>();
        try (Stream<Path> modules = Files.list(SOURCES.resolve(BASE.replace('.', '/')))) {
            for (Path module : modules.filter(Files::isDirectory).sorted().toList()) {
                String name = module.getFileName().toString();
                OwnsTables owns = Class.forName(BASE + "." + name + ".package-info")
                        .getPackage()
                        .getAnnotation(OwnsTables.class);
                if (owns != null) {
                    byModule.put(name, List.of(owns.value()));
                }
            }
        }
        return byModule;
    }
}
