package io.lorekeeper.platform;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;

/** Title and description of the published API (committed as api/openapi.yaml for client generators). */
@Configuration(proxyBeanMethods = false)
class OpenApiInfo {

    @Bean
    OpenAPI lorekeeperApi() {
        return new OpenAPI().info(new Info()
                .title("Lorekeeper API")
                .version("v1")
                .description("Question answering over very long documents and conversation histories, with every "
                        + "citation resolved to exact character offsets of the source. Errors are RFC 9457 problem+json.")
                .license(new License().name("Apache-2.0")));
    }
}
