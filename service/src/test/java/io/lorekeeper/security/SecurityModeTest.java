package io.lorekeeper.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** How the admin key setting picks the mode, and what the service says about it at start. */
@ExtendWith(OutputCaptureExtension.class)
class SecurityModeTest {

    @Test
    void noAdminKeyMeansOpenModeAnnouncedLoudly(CapturedOutput output) {
        SecuritySettings open = new SecuritySettings("  ");
        assertThat(open.keysRequired()).isFalse();
        assertThat(open.mode()).isEqualTo("off");
        new SecurityConfiguration(open).announceMode();
        assertThat(output.getAll())
                .contains("WARN")
                .contains("AUTHENTICATION IS OFF")
                .contains("LOREKEEPER_ADMIN_KEY");
    }

    @Test
    void anAdminKeyMeansApiKeysAndAShortOneIsRefused(CapturedOutput output) {
        String key = "k".repeat(SecuritySettings.MIN_ADMIN_KEY_LENGTH);
        SecuritySettings keys = new SecuritySettings(key);
        assertThat(keys.keysRequired()).isTrue();
        assertThat(keys.mode()).isEqualTo("api-keys");
        new SecurityConfiguration(keys).announceMode();
        assertThat(output.getAll()).doesNotContain("AUTHENTICATION IS OFF").doesNotContain(key);
        assertThatThrownBy(() -> new SecuritySettings("k".repeat(SecuritySettings.MIN_ADMIN_KEY_LENGTH - 1)))
                .hasMessageContaining("at least 32 characters");
    }

    @Test
    void theAdminKeyIsReadFromLOREKEEPER_ADMIN_KEY() throws Exception {
        String key = "e".repeat(40);
        var environment = new org.springframework.core.env.StandardEnvironment();
        new org.springframework.boot.env.YamlPropertySourceLoader()
                .load("application.yml", new org.springframework.core.io.ClassPathResource("application.yml"))
                .forEach(environment.getPropertySources()::addLast);
        environment
                .getPropertySources()
                .addFirst(new org.springframework.core.env.MapPropertySource(
                        "env", java.util.Map.of("LOREKEEPER_ADMIN_KEY", key)));
        SecuritySettings bound = org.springframework.boot.context.properties.bind.Binder.get(environment)
                .bind("lorekeeper.security", SecuritySettings.class)
                .get();
        assertThat(bound.adminKey()).isEqualTo(key);
        QuotaSettings quotas = org.springframework.boot.context.properties.bind.Binder.get(environment)
                .bind("lorekeeper.quotas", QuotaSettings.class)
                .get();
        assertThat(quotas.defaults()).isEqualTo(new Quotas(600, 1024L * 1024 * 1024, 10000, 0));
    }

    @Test
    void aKeyIsMaskedToItsPrefixAndAnythingElseToNothing() {
        String key = ApiKeys.newKey();
        assertThat(ApiKeys.masked(key)).isEqualTo(key.substring(0, 11) + "…");
        assertThat(ApiKeys.masked("sk-proj-abcdefghijklmnopqrstuvwxyz")).doesNotContain("sk-proj");
        assertThat(ApiKeys.masked(null)).doesNotContain("null");
        assertThat(TenantQuotas.utf8Length("aé€😀")).isEqualTo(1 + 2 + 3 + 4);
    }
}
