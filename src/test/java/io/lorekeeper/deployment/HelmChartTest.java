package io.lorekeeper.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * Lints and renders the Helm chart in {@code helm/lorekeeper} with helm-java (Helm as a native
 * library: no helm binary, cluster, Docker or network needed) and checks the structure of the
 * rendered manifests.
 */
class HelmChartTest {

    private static final Path CHART = Path.of("helm", "lorekeeper").toAbsolutePath();
    private static final String RELEASE = "lk";
    private static final String LIVENESS = "/actuator/health/liveness";
    private static final String READINESS = "/actuator/health/readiness";
    private static final String ADMIN_SECRET = "lk-admin-key";

    @Test
    void chartPassesStrictLint() {
        assertThat(Files.isRegularFile(CHART.resolve("Chart.yaml"))).as("chart at %s", CHART).isTrue();

        LintResult result = new Helm(CHART).lint().strict().call();

        assertThat(result.isFailed()).as("lint messages: %s", result.getMessages()).isFalse();
        assertThat(result.getMessages()).noneMatch(m -> m.contains("[WARNING]") || m.contains("[ERROR]"));
    }

    @Test
    void defaultValuesRenderTheExpectedObjects() {
        List<Map<String, Object>> docs = render();

        assertThat(docs).extracting(d -> d.get("kind"))
                .containsExactlyInAnyOrder("ServiceAccount", "Secret", "ConfigMap", "Service", "Deployment");
        assertThat(docs).allSatisfy(d -> assertThat(str(d, "metadata", "name")).isEqualTo("lk-lorekeeper"));
    }

    @Test
    void deploymentProbesTheActuatorHealthGroups() {
        Map<String, Object> container = container(only(render(), "Deployment"));

        assertThat(list(container, "ports")).singleElement().satisfies(port -> {
            assertThat(get(port, "containerPort")).isEqualTo(8080);
            assertThat(get(port, "name")).isEqualTo("http");
        });
        assertThat(get(container, "livenessProbe", "httpGet", "path")).isEqualTo(LIVENESS);
        assertThat(get(container, "livenessProbe", "httpGet", "port")).isEqualTo("http");
        assertThat(get(container, "readinessProbe", "httpGet", "path")).isEqualTo(READINESS);
        assertThat(get(container, "readinessProbe", "httpGet", "port")).isEqualTo("http");
        assertThat(get(container, "startupProbe", "httpGet", "path")).isEqualTo(LIVENESS);

        // The ONNX embedding model and Flyway run at start-up: allow at least two minutes.
        int period = (Integer) get(container, "startupProbe", "periodSeconds");
        int failures = (Integer) get(container, "startupProbe", "failureThreshold");
        assertThat(period * failures).isGreaterThanOrEqualTo(120);
    }

    @Test
    void deploymentGivesTheDjlCacheAWritableEmptyDir() {
        Map<String, Object> deployment = only(render(), "Deployment");
        Map<String, Object> container = container(deployment);

        assertThat(envValue(container, "DJL_CACHE_DIR")).isEqualTo("/tmp/djl");
        for (String mountPath : List.of("/tmp/djl", "/tmp")) {
            Map<String, Object> mount = list(container, "volumeMounts").stream()
                    .filter(m -> mountPath.equals(get(m, "mountPath")))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no volume mounted at " + mountPath));
            assertThat(get(mount, "readOnly")).isNotEqualTo(true);
            Map<String, Object> volume = list(deployment, "spec", "template", "spec", "volumes").stream()
                    .filter(v -> Objects.equals(get(v, "name"), get(mount, "name")))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no volume named " + get(mount, "name")));
            assertThat(volume).containsKey("emptyDir");
        }
    }

    @Test
    void deploymentSetsResourcesAndARestrictedSecurityContext() {
        Map<String, Object> deployment = only(render(), "Deployment");
        Map<String, Object> container = container(deployment);

        assertThat(get(deployment, "spec", "replicas")).isEqualTo(2);
        assertThat(get(container, "resources", "requests", "cpu")).isEqualTo("500m");
        assertThat(get(container, "resources", "requests", "memory")).isEqualTo("1Gi");
        assertThat(get(container, "resources", "limits", "memory")).isEqualTo("2Gi");

        assertThat(get(deployment, "spec", "template", "spec", "securityContext", "runAsNonRoot")).isEqualTo(true);
        assertThat(get(deployment, "spec", "template", "spec", "securityContext", "runAsUser")).isEqualTo(10001);
        assertThat(get(container, "securityContext", "runAsNonRoot")).isEqualTo(true);
        assertThat(get(container, "securityContext", "runAsUser")).isEqualTo(10001);
        assertThat(get(container, "securityContext", "readOnlyRootFilesystem")).isEqualTo(true);
        assertThat(get(container, "securityContext", "allowPrivilegeEscalation")).isEqualTo(false);
        assertThat(get(container, "securityContext", "capabilities", "drop")).isEqualTo(List.of("ALL"));
    }

    @Test
    void deploymentTakesItsEnvironmentFromTheChartsConfigMapAndSecret() {
        List<Map<String, Object>> docs = render();
        Map<String, Object> deployment = only(docs, "Deployment");
        Map<String, Object> container = container(deployment);

        assertThat(envFromNames(container, "configMapRef")).containsExactly(str(only(docs, "ConfigMap"), "metadata", "name"));
        assertThat(envFromNames(container, "secretRef")).containsExactly(str(only(docs, "Secret"), "metadata", "name"));

        Map<String, Object> configData = map(only(docs, "ConfigMap"), "data");
        assertThat(configData).containsKeys("SPRING_DATASOURCE_URL", "LOREKEEPER_LLM_MODEL", "SPRING_PROFILES_ACTIVE",
                "JAVA_TOOL_OPTIONS");
        assertThat((String) configData.get("JAVA_TOOL_OPTIONS")).contains("-XX:MaxRAMPercentage=75");
        assertThat(map(only(docs, "Secret"), "data")).containsOnlyKeys("SPRING_DATASOURCE_USERNAME", "SPRING_DATASOURCE_PASSWORD");

        Map<String, Object> annotations = map(deployment, "spec", "template", "metadata", "annotations");
        assertThat(annotations).containsKeys("checksum/config", "checksum/secret");
    }

    @Test
    void serviceExposesPort80ToTheNamedContainerPort() {
        List<Map<String, Object>> docs = render();
        Map<String, Object> service = only(docs, "Service");

        assertThat(get(service, "spec", "type")).isEqualTo("ClusterIP");
        assertThat(list(service, "spec", "ports")).singleElement().satisfies(port -> {
            assertThat(get(port, "name")).isEqualTo("http");
            assertThat(get(port, "port")).isEqualTo(80);
            assertThat(get(port, "targetPort")).isEqualTo("http");
        });
        Map<String, Object> podLabels = map(only(docs, "Deployment"), "spec", "template", "metadata", "labels");
        assertThat(podLabels).containsAllEntriesOf(map(service, "spec", "selector"));
    }

    @Test
    void replicaCountIsTakenFromValues() {
        Map<String, Object> deployment = only(render("replicaCount", "3"), "Deployment");

        assertThat(get(deployment, "spec", "replicas")).isEqualTo(3);
    }

    @Test
    void existingSecretReplacesTheChartsSecret() {
        List<Map<String, Object>> docs = render("existingSecret", "my-secret");
        Map<String, Object> deployment = only(docs, "Deployment");

        assertThat(docs).extracting(d -> d.get("kind")).doesNotContain("Secret");
        assertThat(envFromNames(container(deployment), "secretRef")).containsExactly("my-secret");
        assertThat(map(deployment, "spec", "template", "metadata", "annotations")).doesNotContainKey("checksum/secret");
    }

    @Test
    void apiKeyGoesToTheSecretAndNeverToTheConfigMap() {
        String apiKey = "sk-test-0123456789abcdef";
        List<Map<String, Object>> docs = render("llm.apiKey", apiKey, "database.password", "s3cret");

        Map<String, Object> configMap = only(docs, "ConfigMap");
        assertThat(map(configMap, "data")).doesNotContainKey("OPENAI_API_KEY").doesNotContainValue(apiKey);
        assertThat(new Yaml().dump(configMap)).doesNotContain(apiKey);

        Map<String, Object> secretData = map(only(docs, "Secret"), "data");
        assertThat(decode(secretData.get("OPENAI_API_KEY"))).isEqualTo(apiKey);
        assertThat(decode(secretData.get("SPRING_DATASOURCE_PASSWORD"))).isEqualTo("s3cret");
        assertThat(decode(secretData.get("SPRING_DATASOURCE_USERNAME"))).isEqualTo("lorekeeper");
    }

    @Test
    void defaultValuesConfigureNoLlmSoNothingCallsAnEndpointWithAnEmptyKey() {
        List<Map<String, Object>> docs = render();

        assertThat(map(only(docs, "ConfigMap"), "data")).doesNotContainKey("LOREKEEPER_LLM_BASE_URL");
        assertThat(map(only(docs, "Secret"), "data")).doesNotContainKey("OPENAI_API_KEY");
    }

    @Test
    void anExplicitBaseUrlIsRenderedForSelfHostedEndpoints() {
        List<Map<String, Object>> docs = render("llm.baseUrl", "http://vllm:8000/v1");

        assertThat(map(only(docs, "ConfigMap"), "data")).containsEntry("LOREKEEPER_LLM_BASE_URL", "http://vllm:8000/v1");
    }

    @Test
    void extraEnvLandsInTheConfigMapAndRollsThePods() {
        List<Map<String, Object>> defaults = render();
        List<Map<String, Object>> custom = render("extraEnv.LOGGING_LEVEL_IO_LOREKEEPER", "DEBUG");

        assertThat(map(only(custom, "ConfigMap"), "data")).containsEntry("LOGGING_LEVEL_IO_LOREKEEPER", "DEBUG");
        assertThat(get(only(custom, "Deployment"), "spec", "template", "metadata", "annotations", "checksum/config"))
                .isNotEqualTo(get(only(defaults, "Deployment"), "spec", "template", "metadata", "annotations", "checksum/config"));
    }

    @Test
    void schemaRejectsZeroReplicas() {
        assertThatThrownBy(() -> render("replicaCount", "0"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("replicaCount");
    }

    @Test
    void schemaRejectsANonPostgresDatabaseUrl() {
        assertThatThrownBy(() -> render("database.url", "mysql://db:3306/lorekeeper"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("database");
    }

    @Test
    void theChartRefusesToRenderWithoutAnAdminKey() {
        assertThatThrownBy(() -> renderBare())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("security.adminKey.existingSecret");
        assertThatThrownBy(() -> renderBare("security.adminKey.existingSecret", "a", "security.adminKey.value", "x".repeat(40)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> renderBare("security.adminKey.value", "too-short"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("adminKey");
    }

    @Test
    void anAdminKeyFromAnExistingSecretIsReferencedNeverCopied() {
        List<Map<String, Object>> docs = render("security.adminKey.existingSecret", "ops-keys", "security.adminKey.existingSecretKey", "lk");
        Map<String, Object> env = list(container(only(docs, "Deployment")), "env").stream()
                .filter(e -> "LOREKEEPER_ADMIN_KEY".equals(e.get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError("no LOREKEEPER_ADMIN_KEY in the container's env"));
        assertThat(get(env, "valueFrom", "secretKeyRef", "name")).isEqualTo("ops-keys");
        assertThat(get(env, "valueFrom", "secretKeyRef", "key")).isEqualTo("lk");
        assertThat(map(only(docs, "Secret"), "data")).doesNotContainKey("LOREKEEPER_ADMIN_KEY");
    }

    @Test
    void anAdminKeyValueGoesToTheChartsSecretAndNeverToTheConfigMap() {
        String adminKey = "admin-0123456789abcdefghijklmnopqrstuvwxyz";
        List<Map<String, Object>> docs = render("security.adminKey.value", adminKey);

        assertThat(decode(map(only(docs, "Secret"), "data").get("LOREKEEPER_ADMIN_KEY"))).isEqualTo(adminKey);
        assertThat(new Yaml().dump(only(docs, "ConfigMap"))).doesNotContain(adminKey);
        assertThat(new Yaml().dump(only(docs, "Deployment"))).doesNotContain(adminKey);
        // With the operator's own Secret for everything else, the value has nowhere to go: refused.
        assertThatThrownBy(() -> render("security.adminKey.value", adminKey, "existingSecret", "mine"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("security.adminKey.existingSecret");
    }

    // --- helpers ------------------------------------------------------------------------------

    /**
     * Renders the chart with {@code --set key=value} pairs and parses every YAML document. The chart
     * requires an admin key: unless the pairs set one, it comes from a Secret named {@value #ADMIN_SECRET}.
     */
    private static List<Map<String, Object>> render(String... keyValues) {
        if (java.util.Arrays.stream(keyValues).noneMatch(k -> k.startsWith("security.adminKey."))) {
            List<String> withKey = new ArrayList<>(List.of(keyValues));
            withKey.addAll(List.of("security.adminKey.existingSecret", ADMIN_SECRET));
            return renderBare(withKey.toArray(String[]::new));
        }
        return renderBare(keyValues);
    }

    private static List<Map<String, Object>> renderBare(String... keyValues) {
        TemplateCommand template = new Helm(CHART).template().withName(RELEASE).withNamespace("lorekeeper");
        for (int i = 0; i < keyValues.length; i += 2) {
            template.set(keyValues[i], keyValues[i + 1]);
        }
        String manifests = template.call();
        List<Map<String, Object>> docs = new ArrayList<>();
        for (Object doc : new Yaml().loadAll(manifests)) {
            if (doc != null) {
                docs.add(asMap(doc));
            }
        }
        return docs;
    }

    private static Map<String, Object> only(List<Map<String, Object>> docs, String kind) {
        List<Map<String, Object>> matching = docs.stream().filter(d -> kind.equals(d.get("kind"))).toList();
        assertThat(matching).as("rendered %s objects", kind).hasSize(1);
        return matching.get(0);
    }

    private static Map<String, Object> container(Map<String, Object> deployment) {
        List<Map<String, Object>> containers = list(deployment, "spec", "template", "spec", "containers");
        assertThat(containers).hasSize(1);
        return containers.get(0);
    }

    private static Object envValue(Map<String, Object> container, String name) {
        return list(container, "env").stream()
                .filter(e -> name.equals(e.get("name")))
                .map(e -> e.get("value"))
                .findFirst()
                .orElse(null);
    }

    private static List<Object> envFromNames(Map<String, Object> container, String refKind) {
        return list(container, "envFrom").stream()
                .filter(e -> e.containsKey(refKind))
                .map(e -> get(e, refKind, "name"))
                .toList();
    }

    private static String decode(Object base64) {
        return new String(Base64.getDecoder().decode(String.valueOf(base64)), StandardCharsets.UTF_8);
    }

    /** Walks nested maps; returns null where a key is missing. */
    private static Object get(Object node, String... path) {
        Object current = node;
        for (String key : path) {
            if (!(current instanceof Map<?, ?> m)) {
                return null;
            }
            current = m.get(key);
        }
        return current;
    }

    private static String str(Object node, String... path) {
        return (String) get(node, path);
    }

    private static Map<String, Object> map(Object node, String... path) {
        Object value = get(node, path);
        assertThat(value).as("map at %s", String.join(".", path)).isInstanceOf(Map.class);
        return asMap(value);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object node, String... path) {
        Object value = get(node, path);
        assertThat(value).as("list at %s", String.join(".", path)).isInstanceOf(List.class);
        return (List<Map<String, Object>>) value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
    }
}
