package io.lorekeeper.security;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.SecuredIntegrationTest;
import io.lorekeeper.support.Tenancy;

/**
 * A whole flow (tenant, key, upload, question, search, a bad key, a revocation) with the service,
 * Spring Security and Spring MVC logging at DEBUG: the captured output holds no key, only prefixes.
 */
@SecuredIntegrationTest
@ExtendWith(OutputCaptureExtension.class)
class KeysNeverLoggedTest {

    private static final List<String> VERBOSE =
            List.of("io.lorekeeper", "org.springframework.security", "org.springframework.web");

    @Autowired
    Api api;

    @Autowired
    LoggingSystem logging;

    @Test
    void noKeyAppearsInTheLogsOfAFullFlow(CapturedOutput output) {
        VERBOSE.forEach(name -> logging.setLogLevel(name, LogLevel.DEBUG));
        String wrong = ApiKeys.newKey();
        Tenancy.TenantWithKey tenant;
        String second;
        try {
            Tenancy tenancy = new Tenancy(api);
            tenant = tenancy.tenant("logging");
            second = tenancy.key(tenant.id(), "second", false).get("key").asString();
            UUID doc = tenant.api()
                    .ingest(aText("The quay was rebuilt in granite after the storm of 1881.")
                            .build());
            assertThat(tenant.api()
                            .ask(Map.of(
                                    "documentIds",
                                    List.of(doc),
                                    "question",
                                    "What was the quay rebuilt in?",
                                    "strategy",
                                    "extractive"))
                            .get("status")
                            .asString())
                    .isEqualTo("DONE");
            assertThat(api.withKey(second)
                            .post("/v1/search", Map.of("documentIds", List.of(doc), "query", "granite"))
                            .status())
                    .isEqualTo(200);
            assertThat(api.withKey(wrong).get("/v1/documents").status()).isEqualTo(401);
            assertThat(tenancy.admin()
                            .delete("/v1/tenants/" + tenant.id() + "/keys/" + tenant.keyId())
                            .status())
                    .isEqualTo(204);
            assertThat(tenant.api().get("/v1/documents/" + doc).status()).isEqualTo(401);
        } finally {
            VERBOSE.forEach(name -> logging.setLogLevel(name, null));
        }
        String logged = output.getAll();
        // The capture works and saw the requests: they are logged by the key's prefix.
        assertThat(logged).contains(tenant.key().substring(0, 11)).contains(second.substring(0, 11));
        for (String key : List.of(tenant.key(), second, wrong, SecuredIntegrationTest.ADMIN_KEY)) {
            assertThat(logged).doesNotContain(key).doesNotContain(key.substring(11));
        }
    }
}
