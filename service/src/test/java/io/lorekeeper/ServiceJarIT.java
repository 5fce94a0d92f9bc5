package io.lorekeeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;

/**
 * The built service jar (Failsafe runs this after {@code package}, so it lists the Spring Boot jar itself) ships
 * neither the evaluation harness nor the test-scope tools among its own classes ({@code BOOT-INF/classes}): the
 * harness is the evaluator module's, the simulated chat models and the embedding benchmark command are test code
 * ({@link TestLorekeeperApplication}). The evaluator library's jar in {@code BOOT-INF/lib} is expected: {@code POST
 * /v1/evaluations} (the service's {@code eval} module) runs the evaluation through it.
 */
class ServiceJarIT {

    private static final Path JAR = Path.of(System.getProperty("lorekeeper.service.jar", "missing"));

    /** Class-file prefixes (under BOOT-INF/classes/) that must not be there. */
    private static final List<String> FORBIDDEN = List.of(
            "io/lorekeeper/evaluator/",
            "io/lorekeeper/eval/EvalRunner",
            "io/lorekeeper/eval/EvalCommand",
            "io/lorekeeper/eval/Datasets",
            "io/lorekeeper/eval/Metrics",
            "io/lorekeeper/eval/Report",
            "io/lorekeeper/eval/ServiceClient",
            "io/lorekeeper/llm/Simulated",
            // the scale benchmark's embedding mode (test code, run by scripts/benchmark.sh on the test class path)
            "io/lorekeeper/memory/SentenceMean",
            "io/lorekeeper/memory/EmbeddingThroughputCommand",
            // the extractive benchmark's baseline (every candidate sentence embedded per question)
            "io/lorekeeper/memory/EverySentenceEmbedded",
            "io/lorekeeper/TestLorekeeperApplication");

    @Test
    void shipsNoHarnessOrSimulatorClassesButTheEvaluatorLibrary() throws Exception {
        assertThat(JAR).as("the service jar (lorekeeper.service.jar)").exists();
        try (ZipFile jar = new ZipFile(JAR.toFile())) {
            List<String> names = jar.stream().map(ZipEntry::getName).toList();
            assertThat(names)
                    .as("the service's own classes")
                    .contains("BOOT-INF/classes/io/lorekeeper/LorekeeperApplication.class");
            assertThat(names.stream()
                            .filter(n -> n.startsWith("BOOT-INF/classes/"))
                            .map(n -> n.substring("BOOT-INF/classes/".length()))
                            .filter(n -> FORBIDDEN.stream().anyMatch(n::startsWith)))
                    .as("harness or simulator classes in BOOT-INF/classes")
                    .isEmpty();
            assertThat(names)
                    .as("the evaluator library, which POST /v1/evaluations uses")
                    .anyMatch(n -> n.startsWith("BOOT-INF/lib/lorekeeper-evaluator-") && n.endsWith(".jar"));
        }
        assertThat(Files.size(JAR)).isPositive();
    }
}
