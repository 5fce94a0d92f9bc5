package io.lorekeeper.security;

import jakarta.servlet.DispatcherType;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.firewall.FirewalledRequest;
import org.springframework.security.web.firewall.HttpFirewall;

/**
 * One stateless filter chain. With an admin key configured every {@code /v1} and {@code /mcp}
 * request needs a key (the admin API the admin key; starting an evaluation the admin key or a key
 * allowed to evaluate); health, the OpenAPI document, Swagger UI and the console stay open. With
 * none, everything is open and every caller is the default tenant, as before keys existed.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);

    private final SecuritySettings settings;

    SecurityConfiguration(SecuritySettings settings) {
        this.settings = settings;
    }

    @Bean
    SecurityFilterChain apiSecurity(HttpSecurity http, KeyAuthenticationProvider keys, FilterProblems problems)
            throws Exception {
        http.csrf(c -> c.disable())
                .httpBasic(b -> b.disable())
                .formLogin(f -> f.disable())
                .logout(l -> l.disable())
                .requestCache(r -> r.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .exceptionHandling(e -> e.authenticationEntryPoint(problems).accessDeniedHandler(problems));
        if (!settings.keysRequired()) {
            return http.authorizeHttpRequests(a -> a.anyRequest().permitAll()).build();
        }
        return http.addFilterBefore(
                        new ApiKeyFilter(new ProviderManager(keys), problems), AnonymousAuthenticationFilter.class)
                .addFilterAfter(new RequestRateLimit(problems), AnonymousAuthenticationFilter.class)
                .authorizeHttpRequests(a -> a
                        // The async dispatch of an event stream and error dispatches were authorised with the request.
                        .dispatcherTypeMatchers(DispatcherType.ASYNC, DispatcherType.ERROR)
                        .permitAll()
                        .requestMatchers(
                                "/v1/tenants", "/v1/tenants/**", "/v1/embedding-model", "/v1/embedding-model/**")
                        .hasAuthority(KeyAuthentication.ADMIN)
                        .requestMatchers(HttpMethod.POST, "/v1/evaluations")
                        .hasAnyAuthority(KeyAuthentication.ADMIN, KeyAuthentication.EVALUATE)
                        .requestMatchers("/v1/**", "/mcp", "/mcp/**")
                        .authenticated()
                        .anyRequest()
                        .permitAll())
                .build();
    }

    /**
     * With keys required, Spring Security's strict firewall guards the path the access rules match
     * (a refused request gets a 400 problem). With keys off every path is open, so nothing depends
     * on the path: requests reach the service unfiltered, and it answers odd paths as it always has.
     */
    @Bean
    WebSecurityCustomizer firewall(FilterProblems problems) {
        return web -> {
            web.requestRejectedHandler(problems);
            if (!settings.keysRequired()) {
                web.httpFirewall(new Unfiltered());
            }
        };
    }

    private static final class Unfiltered implements HttpFirewall {
        @Override
        public FirewalledRequest getFirewalledRequest(jakarta.servlet.http.HttpServletRequest request) {
            return new FirewalledRequest(request) {
                @Override
                public void reset() {
                    // nothing was changed
                }
            };
        }

        @Override
        public jakarta.servlet.http.HttpServletResponse getFirewalledResponse(
                jakarta.servlet.http.HttpServletResponse response) {
            return response;
        }
    }

    @EventListener(ApplicationReadyEvent.class)
    void announceMode() {
        if (settings.keysRequired()) {
            log.info("Authentication: API keys required on /v1 and /mcp (admin key configured)");
        } else {
            log.warn("""
                    ***************************************************************************************
                    AUTHENTICATION IS OFF: anyone who can reach this service can read, change and delete
                    every document and spend its LLM budget. Set LOREKEEPER_ADMIN_KEY (32+ characters)
                    to require API keys; run like this only on your own machine.
                    ***************************************************************************************""");
        }
    }
}
