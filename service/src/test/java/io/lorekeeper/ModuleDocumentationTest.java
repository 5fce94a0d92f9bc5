package io.lorekeeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;

/**
 * The module documentation in {@code docs/modules} is what Spring Modulith's {@link Documenter} makes
 * of the code (the modules and their dependencies as PlantUML, one canvas per module), so it cannot
 * drift: this test makes it again and fails when the committed copy differs (the diagrams' lines in a
 * fixed order: {@link #inOrder}). Regenerate it with
 * {@code -Dlorekeeper.modules.write=true}.
 */
class ModuleDocumentationTest {

    private static final Path DOCS = Path.of("docs", "modules");

    @Test
    void theCommittedModuleDocumentationIsWhatTheCodeMakes() throws IOException {
        Path made = Files.createTempDirectory("modules");
        ApplicationModules modules =
                ApplicationModules.of(LorekeeperApplication.class, location -> !location.contains("/test-classes/"));
        new Documenter(modules, Documenter.Options.defaults().withOutputFolder(made.toString()))
                .writeModulesAsPlantUml()
                .writeIndividualModulesAsPlantUml()
                .writeModuleCanvases();
        Map<String, String> generated = new TreeMap<>();
        read(made).forEach((name, text) -> generated.put(name, name.endsWith(".puml") ? inOrder(text) : text));
        if (Boolean.getBoolean("lorekeeper.modules.write")) {
            if (Files.isDirectory(DOCS)) {
                try (Stream<Path> old = Files.list(DOCS)) {
                    for (Path file : old.toList()) {
                        Files.delete(file);
                    }
                }
            }
            Files.createDirectories(DOCS);
            for (var file : generated.entrySet()) {
                Files.writeString(DOCS.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
            }
        }
        assertThat(DOCS)
                .as("docs/modules is missing; run this test once with -Dlorekeeper.modules.write=true")
                .isDirectory();
        assertThat(read(DOCS))
                .as("docs/modules is stale; regenerate with -Dlorekeeper.modules.write=true")
                .isEqualTo(generated);
    }

    /**
     * The diagram with each run of components and each run of relations sorted: the Documenter lists
     * them in the order of a hash set, which differs from run to run, and the order means nothing.
     */
    static String inOrder(String puml) {
        List<String> out = new ArrayList<>();
        List<String> run = new ArrayList<>();
        String kind = null;
        for (String line : puml.split("\n", -1)) {
            String lineKind = line.strip().startsWith("Rel(")
                    ? "Rel("
                    : line.strip().startsWith("Component(") ? "Component(" : null;
            if (!Objects.equals(lineKind, kind)) {
                run.sort(null);
                out.addAll(run);
                run.clear();
                kind = lineKind;
            }
            if (lineKind == null) {
                out.add(line);
            } else {
                run.add(line);
            }
        }
        run.sort(null);
        out.addAll(run);
        return String.join("\n", out);
    }

    private static Map<String, String> read(Path folder) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(folder)) {
            for (Path file : list.filter(Files::isRegularFile).toList()) {
                files.put(file.getFileName().toString(), Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        return files;
    }
}
