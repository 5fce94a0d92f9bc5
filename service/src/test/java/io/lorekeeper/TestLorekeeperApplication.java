package io.lorekeeper;

import java.io.IOException;
import java.util.Set;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.classreading.MetadataReaderFactory;

/**
 * The service with its test-scope tools, which the service jar does not ship: the deterministic simulated chat
 * models ({@code io.lorekeeper.llm.SimulatedChatModels}, with {@code lorekeeper.llm.simulated.enabled=true}) and the
 * ingestion benchmark's {@code embedding-benchmark} command ({@code io.lorekeeper.memory.EmbeddingThroughputCommand})
 * and the scale benchmark's {@code sentence-mean} embedding mode ({@code io.lorekeeper.memory.SentenceMeanBenchmarkMode})
 * and the extractive benchmark's baseline ({@code io.lorekeeper.memory.EverySentenceEmbeddedBaseline}).
 * {@code scripts/eval.sh} (LK_EVAL_SIMULATED=1) and {@code scripts/benchmark.sh} (phases ingest, scale, throughput, strategies
 * and extractive) run
 * it with the test class path ({@code java -cp test-classes:classes:<test dependencies>}); everything else is
 * {@link LorekeeperApplication} as the jar runs it.
 *
 * <p>Of the classes under test-classes the component scan keeps only {@link #TOOLS}: the test configurations there
 * (scripted models, fault injection, clocks) must not wire themselves into a running service.
 */
public final class TestLorekeeperApplication {

    /** The components taken from the test classes; every other class there is left out of the scan. */
    static final Set<String> TOOLS = Set.of(
            "io.lorekeeper.llm.SimulatedChatModels",
            "io.lorekeeper.memory.EmbeddingThroughputCommand",
            "io.lorekeeper.memory.SentenceMeanBenchmarkMode",
            "io.lorekeeper.memory.EverySentenceEmbeddedBaseline");

    private TestLorekeeperApplication() {}

    public static void main(String[] args) {
        SpringApplication application = new SpringApplication(LorekeeperApplication.class);
        // @SpringBootApplication's TypeExcludeFilter asks every TypeExcludeFilter bean, as Spring Boot's tests do
        application.addInitializers(
                context -> context.getBeanFactory().registerSingleton("onlyTestTools", new OnlyTools(testClasses())));
        application.run(args);
    }

    private static String testClasses() {
        return TestLorekeeperApplication.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toString();
    }

    /** Excludes the classes found under the test classes but the tools. */
    static final class OnlyTools extends TypeExcludeFilter {

        private final String testClasses;

        OnlyTools(String testClasses) {
            this.testClasses = testClasses;
        }

        @Override
        public boolean match(MetadataReader reader, MetadataReaderFactory factory) throws IOException {
            return reader.getResource().getURI().toString().startsWith(testClasses)
                    && !TOOLS.contains(reader.getClassMetadata().getClassName());
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof OnlyTools o && o.testClasses.equals(testClasses);
        }

        @Override
        public int hashCode() {
            return testClasses.hashCode();
        }
    }
}
