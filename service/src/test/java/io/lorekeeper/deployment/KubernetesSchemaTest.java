package io.lorekeeper.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;

/**
 * Validates the chart's rendered manifests against the Kubernetes API schemas of a current release
 * (npm {@code kubernetes-models}, Kubernetes 1.34+), KEDA's CRD schemas ({@code @kubernetes-models/keda})
 * and the required fields of CloudNativePG's Cluster, with Node ({@code helm/validate/validate.mjs}).
 * The npm packages, pinned by {@code helm/validate/package-lock.json}, are installed once into the build
 * directory. Covers the default values, the production-like values file and the optional objects;
 * a deliberately broken render proves that the validator fails.
 */
class KubernetesSchemaTest {

    private static final Path CHART = Path.of("helm", "lorekeeper").toAbsolutePath();
    private static final Path SOURCES = Path.of("helm", "validate").toAbsolutePath();
    private static Path validator;

    record Result(int exitCode, String output) {}

    @BeforeAll
    static void installValidator() throws Exception {
        // beside test-classes, in this checkout's build directory
        Path dir = Path.of(KubernetesSchemaTest.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .getParent()
                .resolve("k8s-validate");
        Files.createDirectories(dir);
        for (String file : List.of("package.json", "package-lock.json", "validate.mjs")) {
            Files.copy(SOURCES.resolve(file), dir.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        if (!Files.isDirectory(dir.resolve("node_modules/kubernetes-models"))) {
            Result install = run(dir, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error");
            assertThat(install.exitCode())
                    .as("npm ci in %s: %s", dir, install.output())
                    .isZero();
        }
        validator = dir;
    }

    @Test
    void defaultValuesValidate() throws Exception {
        Result result = validate(render(new Helm(CHART).template()));

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output())
                .contains(
                        "\"kind\":\"Deployment\"",
                        "\"kind\":\"HorizontalPodAutoscaler\"",
                        "\"kind\":\"PodDisruptionBudget\"",
                        "\"kind\":\"Service\"");
    }

    @Test
    void productionValuesValidate() throws Exception {
        Result result =
                validate(render(new Helm(CHART).template().withValuesFile(CHART.resolve("values-production.yaml"))));

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output())
                .contains(
                        "\"kind\":\"ScaledObject\"",
                        "\"kind\":\"TriggerAuthentication\"",
                        "\"kind\":\"HorizontalPodAutoscaler\"");
    }

    @Test
    void optionalObjectsValidate() throws Exception {
        Result cnpg = validate(render(new Helm(CHART).template().set("cnpg.enabled", "true")));
        Result allInOne = validate(render(new Helm(CHART)
                .template()
                .set("role", "all")
                .set("database.createExtension.enabled", "true")
                .set("database.createExtension.hook", "false")
                .set("database.createExtension.superuserSecret", "pg-admin")));

        assertThat(cnpg.exitCode()).as(cnpg.output()).isZero();
        assertThat(cnpg.output()).contains("\"kind\":\"Cluster\"");
        assertThat(allInOne.exitCode()).as(allInOne.output()).isZero();
        assertThat(allInOne.output()).contains("\"kind\":\"Job\"");
    }

    @Test
    void aBrokenRenderFailsNamingTheObjectAndField() throws Exception {
        String manifests = render(new Helm(CHART).template().set("worker.keda.enabled", "true"));
        // a port given as a name where a number is required, and a trigger without its type
        String broken = manifests
                .replaceFirst("containerPort: 8080", "containerPort: \"http\"")
                .replaceFirst("- type: postgresql", "- typo: postgresql");
        assertThat(broken).isNotEqualTo(manifests);

        Result result = validate(broken);

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.output())
                .contains("containerPort must be integer")
                .contains("must have required property type");
        assertThat(result.output().lines().filter(line -> !line.contains("\"errors\":[]")))
                .hasSize(2)
                .anySatisfy(line -> assertThat(line).contains("\"kind\":\"Deployment\"", "lk-lorekeeper-api"))
                .anySatisfy(line -> assertThat(line).contains("\"kind\":\"ScaledObject\""));
    }

    @Test
    void anUnknownKindIsNotPassedUnchecked() throws Exception {
        Result result = validate("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.output()).contains("no schema for example.com/v1 Widget");
    }

    /** Renders with the admin key the chart requires taken from an operator's Secret (production values name their own). */
    private static String render(TemplateCommand template) {
        return template.withName("lk")
                .withNamespace("lorekeeper")
                .set("security.adminKey.existingSecret", "lk-admin-key")
                .call();
    }

    private static Result validate(String manifests) throws Exception {
        Path file = Files.createTempFile(validator, "manifests-", ".yaml");
        try {
            Files.writeString(file, manifests, StandardCharsets.UTF_8);
            return run(validator, "node", "validate.mjs", file.toString());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static Result run(Path dir, String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish: " + output);
        }
        return new Result(process.exitValue(), output);
    }
}
