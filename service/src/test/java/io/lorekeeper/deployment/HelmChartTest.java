package io.lorekeeper.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;

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
        assertThat(Files.isRegularFile(CHART.resolve("Chart.yaml")))
                .as("chart at %s", CHART)
                .isTrue();

        LintResult result = new Helm(CHART).lint().strict().call();

        assertThat(result.isFailed())
                .as("lint messages: %s", result.getMessages())
                .isFalse();
        assertThat(result.getMessages()).noneMatch(m -> m.contains("[WARNING]") || m.contains("[ERROR]"));
    }

    @Test
    void defaultValuesRenderSeparateApiAndWorkerDeploymentsWithTheirScalers() {
        List<Map<String, Object>> docs = render();

        assertThat(docs)
                .extracting(d -> d.get("kind") + "/" + str(d, "metadata", "name"))
                .containsExactlyInAnyOrder(
                        "ServiceAccount/lk-lorekeeper",
                        "Secret/lk-lorekeeper",
                        "ConfigMap/lk-lorekeeper",
                        "Service/lk-lorekeeper",
                        "Deployment/lk-lorekeeper-api",
                        "Deployment/lk-lorekeeper-worker",
                        "HorizontalPodAutoscaler/lk-lorekeeper-api",
                        "PodDisruptionBudget/lk-lorekeeper-api",
                        "PodDisruptionBudget/lk-lorekeeper-worker");
    }

    @Test
    void eachDeploymentRunsItsRoleAndTheServiceSelectsOnlyTheApi() {
        List<Map<String, Object>> docs = render();
        Map<String, Object> api = named(docs, "Deployment", "lk-lorekeeper-api");
        Map<String, Object> worker = named(docs, "Deployment", "lk-lorekeeper-worker");

        assertThat(envValue(container(api), "LOREKEEPER_ROLE")).isEqualTo("api");
        assertThat(envValue(container(worker), "LOREKEEPER_ROLE")).isEqualTo("worker");
        assertThat(envValue(container(worker), "DBSCHEDULER_THREADS")).isEqualTo("16");
        assertThat(envValue(container(api), "DBSCHEDULER_THREADS"))
                .as("the api executes no jobs")
                .isNull();

        Map<String, Object> selector = map(only(docs, "Service"), "spec", "selector");
        assertThat(selector).containsEntry("app.kubernetes.io/component", "api");
        assertThat(map(api, "spec", "template", "metadata", "labels")).containsAllEntriesOf(selector);
        assertThat(map(worker, "spec", "template", "metadata", "labels"))
                .doesNotContainEntry("app.kubernetes.io/component", "api");
        // each Deployment selects only its own pods
        assertThat(map(api, "spec", "selector", "matchLabels")).containsEntry("app.kubernetes.io/component", "api");
        assertThat(map(worker, "spec", "selector", "matchLabels"))
                .containsEntry("app.kubernetes.io/component", "worker");
    }

    @Test
    void theEnvironmentVariablesTheChartSetsBindToTheServicesProperties() {
        List<Map<String, Object>> docs = render("database.searchUrl", "jdbc:postgresql://replica:5432/lorekeeper");
        Map<String, Object> env = new java.util.HashMap<>(map(only(docs, "ConfigMap"), "data"));
        list(container(named(docs, "Deployment", "lk-lorekeeper-worker")), "env").stream()
                .filter(e -> e.get("value") != null)
                .forEach(e -> env.put((String) e.get("name"), e.get("value")));
        // Spring maps an environment variable to a property by dropping dashes, not by turning them into underscores
        var source = new org.springframework.core.env.SystemEnvironmentPropertySource(
                org.springframework.core.env.StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, env);
        var binder = new org.springframework.boot.context.properties.bind.Binder(
                org.springframework.boot.context.properties.source.ConfigurationPropertySources.from(source));

        Map<String, Object> expected = Map.of(
                "lorekeeper.role", "worker",
                "db-scheduler.threads", "16",
                "db-scheduler.shutdown-max-wait", "280s",
                "spring.datasource.hikari.maximum-pool-size", "30",
                "spring.datasource.url", "jdbc:postgresql://postgresql:5432/lorekeeper",
                "lorekeeper.search.datasource.url", "jdbc:postgresql://replica:5432/lorekeeper");
        expected.forEach((property, value) -> assertThat(
                        binder.bind(property, String.class).orElse(null))
                .as("property %s from the chart's environment", property)
                .isEqualTo(value));
    }

    @Test
    void deploymentsProbeTheActuatorHealthGroups() {
        for (Map<String, Object> deployment : all(render(), "Deployment")) {
            Map<String, Object> container = container(deployment);

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
    }

    @Test
    void deploymentsGiveTheDjlCacheAWritableEmptyDir() {
        for (Map<String, Object> deployment : all(render(), "Deployment")) {
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
    }

    @Test
    void deploymentsSetCpuAndMemoryLimitsAndARestrictedSecurityContext() {
        List<Map<String, Object>> docs = render();
        Map<String, Object> api = container(named(docs, "Deployment", "lk-lorekeeper-api"));
        Map<String, Object> worker = container(named(docs, "Deployment", "lk-lorekeeper-worker"));

        assertThat(get(api, "resources", "requests", "cpu")).isEqualTo("500m");
        assertThat(get(api, "resources", "limits", "cpu")).isEqualTo("2");
        assertThat(get(api, "resources", "limits", "memory")).isEqualTo("3Gi");
        assertThat(get(worker, "resources", "limits", "cpu")).isEqualTo("2");
        assertThat(get(worker, "resources", "limits", "memory")).isEqualTo("3Gi");
        // the heap is a share of the limit; the api leaves room for file extraction processes, the
        // worker for ONNX Runtime
        assertThat((String) envValue(api, "JAVA_TOOL_OPTIONS")).contains("-XX:MaxRAMPercentage=45");
        assertThat((String) envValue(worker, "JAVA_TOOL_OPTIONS")).contains("-XX:MaxRAMPercentage=60");

        for (Map<String, Object> deployment : all(docs, "Deployment")) {
            Map<String, Object> container = container(deployment);
            assertThat(get(deployment, "spec", "template", "spec", "securityContext", "runAsNonRoot"))
                    .isEqualTo(true);
            assertThat(get(deployment, "spec", "template", "spec", "securityContext", "runAsUser"))
                    .isEqualTo(10001);
            assertThat(get(container, "securityContext", "runAsNonRoot")).isEqualTo(true);
            assertThat(get(container, "securityContext", "readOnlyRootFilesystem"))
                    .isEqualTo(true);
            assertThat(get(container, "securityContext", "allowPrivilegeEscalation"))
                    .isEqualTo(false);
            assertThat(get(container, "securityContext", "capabilities", "drop"))
                    .isEqualTo(List.of("ALL"));
        }
    }

    @Test
    void schemaRequiresCpuAndMemoryLimitsSoThreadsAndHeapFollowTheContainer() {
        assertThatThrownBy(() -> render("worker.resources.limits.cpu", "null"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cpu");
    }

    @Test
    void podsDrainWithAPreStopPauseWithinTheirGracePeriod() {
        List<Map<String, Object>> docs = render("drain.preStopSleepSeconds", "12");
        for (Map<String, Object> deployment : all(docs, "Deployment")) {
            Map<String, Object> container = container(deployment);
            assertThat(get(container, "lifecycle", "preStop", "exec", "command"))
                    .isEqualTo(List.of("sleep", "12"));
            assertThat((Integer) get(deployment, "spec", "template", "spec", "terminationGracePeriodSeconds"))
                    .isGreaterThan(12 + 20);
        }
        Map<String, Object> worker = container(named(docs, "Deployment", "lk-lorekeeper-worker"));
        // the scheduler's own wait ends before the kubelet's SIGKILL: 300 - 12 - 10
        assertThat(envValue(worker, "DBSCHEDULER_SHUTDOWNMAXWAIT")).isEqualTo("278s");
    }

    @Test
    void podsSpreadOverZonesAndNodesBySelectingTheirOwnComponent() {
        for (Map<String, Object> deployment : all(render(), "Deployment")) {
            List<Map<String, Object>> spread =
                    list(deployment, "spec", "template", "spec", "topologySpreadConstraints");
            assertThat(spread)
                    .extracting(c -> c.get("topologyKey"))
                    .containsExactly("topology.kubernetes.io/zone", "kubernetes.io/hostname");
            assertThat(spread)
                    .allSatisfy(c -> assertThat(map(c, "labelSelector", "matchLabels"))
                            .isEqualTo(map(deployment, "spec", "selector", "matchLabels")));
        }
    }

    @Test
    void theHpaOwnsTheApiReplicaCountAndPdbsCoverBothComponents() {
        List<Map<String, Object>> docs = render();
        Map<String, Object> hpa = only(docs, "HorizontalPodAutoscaler");

        assertThat(hpa.get("apiVersion")).isEqualTo("autoscaling/v2");
        assertThat(get(hpa, "spec", "scaleTargetRef", "kind")).isEqualTo("Deployment");
        assertThat(get(hpa, "spec", "scaleTargetRef", "name")).isEqualTo("lk-lorekeeper-api");
        assertThat(get(hpa, "spec", "minReplicas")).isEqualTo(2);
        assertThat(list(hpa, "spec", "metrics"))
                .singleElement()
                .satisfies(m -> assertThat(get(m, "resource", "target", "averageUtilization"))
                        .isEqualTo(70));
        assertThat(map(named(docs, "Deployment", "lk-lorekeeper-api"), "spec")).doesNotContainKey("replicas");
        assertThat(get(named(docs, "Deployment", "lk-lorekeeper-worker"), "spec", "replicas"))
                .isEqualTo(2);

        for (String component : List.of("api", "worker")) {
            Map<String, Object> pdb = named(docs, "PodDisruptionBudget", "lk-lorekeeper-" + component);
            assertThat(get(pdb, "spec", "maxUnavailable")).isEqualTo(1);
            assertThat(map(pdb, "spec", "selector", "matchLabels"))
                    .isEqualTo(map(
                            named(docs, "Deployment", "lk-lorekeeper-" + component),
                            "spec",
                            "selector",
                            "matchLabels"));
        }
    }

    @Test
    void replicaCountsAreTakenFromValuesWhenNoAutoscalerOwnsThem() {
        List<Map<String, Object>> docs =
                render("api.autoscaling.enabled", "false", "api.replicaCount", "3", "worker.replicaCount", "4");

        assertThat(docs).extracting(d -> d.get("kind")).doesNotContain("HorizontalPodAutoscaler");
        assertThat(get(named(docs, "Deployment", "lk-lorekeeper-api"), "spec", "replicas"))
                .isEqualTo(3);
        assertThat(get(named(docs, "Deployment", "lk-lorekeeper-worker"), "spec", "replicas"))
                .isEqualTo(4);
    }

    @Test
    void kedaScalesTheWorkersOnDueJobsInTheSchedulerTable() {
        List<Map<String, Object>> docs = render(
                "worker.keda.enabled",
                "true",
                "database.url",
                "jdbc:postgresql://pg.example.internal:6432/lore?sslmode=require");
        Map<String, Object> scaled = only(docs, "ScaledObject");

        assertThat(scaled.get("apiVersion")).isEqualTo("keda.sh/v1alpha1");
        assertThat(get(scaled, "spec", "scaleTargetRef", "name")).isEqualTo("lk-lorekeeper-worker");
        Map<String, Object> trigger = list(scaled, "spec", "triggers").get(0);
        assertThat(trigger.get("type")).isEqualTo("postgresql");
        assertThat(map(trigger, "metadata"))
                .containsEntry("host", "pg.example.internal")
                .containsEntry("port", "6432")
                .containsEntry("dbName", "lore")
                .containsEntry("targetQueryValue", "8");
        assertThat((String) get(trigger, "metadata", "query"))
                .contains("FROM scheduled_tasks")
                .contains("execution_time <= now()");
        Map<String, Object> auth = only(docs, "TriggerAuthentication");
        assertThat(get(trigger, "authenticationRef", "name")).isEqualTo(str(auth, "metadata", "name"));
        assertThat(list(auth, "spec", "secretTargetRef"))
                .extracting(r -> r.get("parameter") + "=" + r.get("name") + "/" + r.get("key"))
                .containsExactlyInAnyOrder(
                        "userName=lk-lorekeeper/SPRING_DATASOURCE_USERNAME",
                        "password=lk-lorekeeper/SPRING_DATASOURCE_PASSWORD");
        // KEDA owns the worker count now
        assertThat(map(named(docs, "Deployment", "lk-lorekeeper-worker"), "spec"))
                .doesNotContainKey("replicas");
    }

    @Test
    void roleAllRendersOneDeploymentThatServesAndRunsJobs() {
        List<Map<String, Object>> docs = render("role", "all", "api.autoscaling.enabled", "false");
        Map<String, Object> deployment = only(docs, "Deployment");

        assertThat(str(deployment, "metadata", "name")).isEqualTo("lk-lorekeeper");
        assertThat(envValue(container(deployment), "LOREKEEPER_ROLE")).isEqualTo("all");
        assertThat(envValue(container(deployment), "DBSCHEDULER_THREADS")).isEqualTo("16");
        assertThat(get(deployment, "spec", "replicas")).isEqualTo(2);
        assertThat(map(deployment, "spec", "template", "metadata", "labels"))
                .containsAllEntriesOf(map(only(docs, "Service"), "spec", "selector"));
        assertThat(docs)
                .extracting(d -> d.get("kind"))
                .containsOnlyOnce("PodDisruptionBudget")
                .doesNotContain("ScaledObject");
    }

    @Test
    void searchQueriesGoToTheReadReplicaWhenOneIsGiven() {
        assertThat(map(only(render(), "ConfigMap"), "data")).doesNotContainKey("LOREKEEPER_SEARCH_DATASOURCE_URL");

        Map<String, Object> data = map(
                only(render("database.searchUrl", "jdbc:postgresql://replica:5432/lorekeeper"), "ConfigMap"), "data");
        assertThat(data).containsEntry("LOREKEEPER_SEARCH_DATASOURCE_URL", "jdbc:postgresql://replica:5432/lorekeeper");
    }

    @Test
    void theCloudNativePgExampleProvidesThePrimaryReplicasCredentialsAndTheExtension() {
        List<Map<String, Object>> docs = render("cnpg.enabled", "true");
        Map<String, Object> cluster = only(docs, "Cluster");

        assertThat(cluster.get("apiVersion")).isEqualTo("postgresql.cnpg.io/v1");
        assertThat(str(cluster, "metadata", "name")).isEqualTo("lk-lorekeeper-db");
        assertThat(get(cluster, "spec", "instances")).isEqualTo(3);
        assertThat(list(cluster, "spec", "bootstrap", "initdb", "postInitApplicationSQL"))
                .asString()
                .contains("CREATE EXTENSION IF NOT EXISTS vector");
        assertThat(map(only(docs, "ConfigMap"), "data"))
                .containsEntry("SPRING_DATASOURCE_URL", "jdbc:postgresql://lk-lorekeeper-db-rw:5432/lorekeeper")
                .containsEntry(
                        "LOREKEEPER_SEARCH_DATASOURCE_URL", "jdbc:postgresql://lk-lorekeeper-db-ro:5432/lorekeeper");
        Map<String, Object> env = list(container(named(docs, "Deployment", "lk-lorekeeper-api")), "env").stream()
                .filter(e -> "SPRING_DATASOURCE_PASSWORD".equals(e.get("name")))
                .findFirst()
                .orElseThrow();
        assertThat(get(env, "valueFrom", "secretKeyRef", "name")).isEqualTo("lk-lorekeeper-db-app");
    }

    @Test
    void theExtensionHookRunsAsASuperuserFromItsSecretBeforeThePodsStart() {
        assertThatThrownBy(() -> render("database.createExtension.enabled", "true"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("superuserSecret");

        // a hook is not part of the release's manifests (helm template leaves it out here)...
        assertThat(render(
                        "database.createExtension.enabled",
                        "true",
                        "database.createExtension.superuserSecret",
                        "pg-admin"))
                .extracting(d -> d.get("kind"))
                .doesNotContain("Job");
        // ...so its content is checked as the plain Job it renders for tools without hooks
        Map<String, Object> job = only(
                render(
                        "database.createExtension.enabled",
                        "true",
                        "database.createExtension.hook",
                        "false",
                        "database.createExtension.superuserSecret",
                        "pg-admin",
                        "database.url",
                        "jdbc:postgresql://pg:5433/lore"),
                "Job");
        assertThat(get(job, "metadata", "annotations")).isNull();
        Map<String, Object> container =
                list(job, "spec", "template", "spec", "containers").get(0);
        assertThat((List<?>) get(container, "command")).asString().contains("CREATE EXTENSION IF NOT EXISTS vector");
        assertThat(envValue(container, "PGHOST")).isEqualTo("pg");
        assertThat(envValue(container, "PGPORT")).isEqualTo("5433");
        assertThat(envValue(container, "PGDATABASE")).isEqualTo("lore");
        Map<String, Object> user = list(container, "env").stream()
                .filter(e -> "PGUSER".equals(e.get("name")))
                .findFirst()
                .orElseThrow();
        assertThat(get(user, "valueFrom", "secretKeyRef", "name")).isEqualTo("pg-admin");
    }

    @Test
    void deploymentsTakeTheirEnvironmentFromTheChartsConfigMapAndSecret() {
        List<Map<String, Object>> docs = render();
        for (Map<String, Object> deployment : all(docs, "Deployment")) {
            Map<String, Object> container = container(deployment);

            assertThat(envFromNames(container, "configMapRef"))
                    .containsExactly(str(only(docs, "ConfigMap"), "metadata", "name"));
            assertThat(envFromNames(container, "secretRef"))
                    .containsExactly(str(only(docs, "Secret"), "metadata", "name"));
            Map<String, Object> annotations = map(deployment, "spec", "template", "metadata", "annotations");
            assertThat(annotations).containsKeys("checksum/config", "checksum/secret");
        }

        Map<String, Object> configData = map(only(docs, "ConfigMap"), "data");
        assertThat(configData).containsKeys("SPRING_DATASOURCE_URL", "LOREKEEPER_LLM_MODEL", "SPRING_PROFILES_ACTIVE");
        assertThat(map(only(docs, "Secret"), "data"))
                .containsOnlyKeys("SPRING_DATASOURCE_USERNAME", "SPRING_DATASOURCE_PASSWORD");
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
    }

    @Test
    void existingSecretReplacesTheChartsSecret() {
        List<Map<String, Object>> docs = render("existingSecret", "my-secret");

        assertThat(docs).extracting(d -> d.get("kind")).doesNotContain("Secret");
        for (Map<String, Object> deployment : all(docs, "Deployment")) {
            assertThat(envFromNames(container(deployment), "secretRef")).containsExactly("my-secret");
            assertThat(map(deployment, "spec", "template", "metadata", "annotations"))
                    .doesNotContainKey("checksum/secret");
        }
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

        assertThat(map(only(docs, "ConfigMap"), "data"))
                .containsEntry("LOREKEEPER_LLM_BASE_URL", "http://vllm:8000/v1");
    }

    @Test
    void extraEnvLandsInTheConfigMapAndRollsThePods() {
        List<Map<String, Object>> defaults = render();
        List<Map<String, Object>> custom = render("extraEnv.LOGGING_LEVEL_IO_LOREKEEPER", "DEBUG");

        assertThat(map(only(custom, "ConfigMap"), "data")).containsEntry("LOGGING_LEVEL_IO_LOREKEEPER", "DEBUG");
        String path = "spec.template.metadata.annotations.checksum/config";
        assertThat(get(named(custom, "Deployment", "lk-lorekeeper-worker"), path.split("\\.")))
                .isNotEqualTo(get(named(defaults, "Deployment", "lk-lorekeeper-worker"), path.split("\\.")));
    }

    @Test
    void schemaRejectsZeroReplicas() {
        assertThatThrownBy(() -> render("api.replicaCount", "0"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("replicaCount");
    }

    @Test
    void schemaRejectsAnUnknownRole() {
        assertThatThrownBy(() -> render("role", "both"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("role");
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
        assertThatThrownBy(() ->
                        renderBare("security.adminKey.existingSecret", "a", "security.adminKey.value", "x".repeat(40)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> renderBare("security.adminKey.value", "too-short"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("adminKey");
    }

    @Test
    void anAdminKeyFromAnExistingSecretIsReferencedNeverCopied() {
        List<Map<String, Object>> docs =
                render("security.adminKey.existingSecret", "ops-keys", "security.adminKey.existingSecretKey", "lk");
        for (Map<String, Object> deployment : all(docs, "Deployment")) {
            Map<String, Object> env = list(container(deployment), "env").stream()
                    .filter(e -> "LOREKEEPER_ADMIN_KEY".equals(e.get("name")))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no LOREKEEPER_ADMIN_KEY in the container's env"));
            assertThat(get(env, "valueFrom", "secretKeyRef", "name")).isEqualTo("ops-keys");
            assertThat(get(env, "valueFrom", "secretKeyRef", "key")).isEqualTo("lk");
        }
        assertThat(map(only(docs, "Secret"), "data")).doesNotContainKey("LOREKEEPER_ADMIN_KEY");
    }

    @Test
    void anAdminKeyValueGoesToTheChartsSecretAndNeverToTheConfigMap() {
        String adminKey = "admin-0123456789abcdefghijklmnopqrstuvwxyz";
        List<Map<String, Object>> docs = render("security.adminKey.value", adminKey);

        assertThat(decode(map(only(docs, "Secret"), "data").get("LOREKEEPER_ADMIN_KEY")))
                .isEqualTo(adminKey);
        assertThat(new Yaml().dump(only(docs, "ConfigMap"))).doesNotContain(adminKey);
        assertThat(all(docs, "Deployment"))
                .allSatisfy(d -> assertThat(new Yaml().dump(d)).doesNotContain(adminKey));
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
        List<Map<String, Object>> matching =
                docs.stream().filter(d -> kind.equals(d.get("kind"))).toList();
        assertThat(matching).as("rendered %s objects", kind).hasSize(1);
        return matching.get(0);
    }

    private static List<Map<String, Object>> all(List<Map<String, Object>> docs, String kind) {
        List<Map<String, Object>> matching =
                docs.stream().filter(d -> kind.equals(d.get("kind"))).toList();
        assertThat(matching).as("rendered %s objects", kind).isNotEmpty();
        return matching;
    }

    private static Map<String, Object> named(List<Map<String, Object>> docs, String kind, String name) {
        return docs.stream()
                .filter(d -> kind.equals(d.get("kind")) && name.equals(get(d, "metadata", "name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " named " + name));
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
