package io.lorekeeper.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** The compose files as a newcomer runs them: no LLM unless asked for, and Ollama only once its model is there. */
class ComposeFileTest {

    @SuppressWarnings("unchecked")
    private static Map<String, Object> load(String file) throws IOException {
        return new Yaml().load(Files.readString(Path.of(file)));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> service(Map<String, Object> compose, String name) {
        return (Map<String, Object>) ((Map<String, Object>) compose.get("services")).get(name);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theDefaultStackStartsNoLlmAndSetsNoEndpoint() throws IOException {
        Map<String, Object> compose = load("docker-compose.yml");

        assertThat(((Map<String, Object>) compose.get("services")).keySet())
                .containsExactlyInAnyOrder("postgres", "lorekeeper");
        Map<String, Object> env =
                (Map<String, Object>) service(compose, "lorekeeper").get("environment");
        assertThat(env.get("LOREKEEPER_LLM_BASE_URL")).isEqualTo("${LOREKEEPER_LLM_BASE_URL:-}");
        assertThat(env.get("OPENAI_API_KEY")).isEqualTo("${OPENAI_API_KEY:-}");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theOllamaOverlayWaitsForTheModelPullAndSizesTheContext() throws IOException {
        Map<String, Object> overlay = load("docker-compose.ollama.yml");

        Map<String, Object> lorekeeper = service(overlay, "lorekeeper");
        Map<String, Object> dependsOn = (Map<String, Object>) lorekeeper.get("depends_on");
        assertThat((Map<String, Object>) dependsOn.get("ollama-pull"))
                .containsEntry("condition", "service_completed_successfully");
        Map<String, Object> env = (Map<String, Object>) lorekeeper.get("environment");
        assertThat(env)
                .containsEntry("LOREKEEPER_LLM_BASE_URL", "http://ollama:11434/v1")
                .containsEntry("LOREKEEPER_MINDGRAPH_INGEST", "false");
        Map<String, Object> ollamaEnv =
                (Map<String, Object>) service(overlay, "ollama").get("environment");
        assertThat(ollamaEnv.get("OLLAMA_CONTEXT_LENGTH")).isEqualTo(env.get("LOREKEEPER_LLM_CONTEXT_WINDOW"));
    }
}
