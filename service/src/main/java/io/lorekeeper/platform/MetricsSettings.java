package io.lorekeeper.platform;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What the service's own metrics may carry, under {@code lorekeeper.metrics}.
 *
 * @param tenantTag whether LLM and question metrics carry a {@code tenant} label (the tenant's id). Off by
 *                  default: every tenant multiplies those series, so an operator turns it on only where the
 *                  number of tenants is small enough for the monitoring system to hold.
 */
@ConfigurationProperties("lorekeeper.metrics")
public record MetricsSettings(@DefaultValue("false") boolean tenantTag) {

    /** The label every metric that may name a tenant uses. */
    public static final String TENANT = "tenant";
}
