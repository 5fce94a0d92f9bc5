package io.lorekeeper.platform;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Import;

/**
 * What the platform's servlet filters need in {@link io.lorekeeper.support.ControllerSlice}: the platform's
 * settings (the request size limit), bound from the real configuration. Declared here because the settings
 * record is package-private.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Import(PlatformControllerBeans.Settings.class)
public @interface PlatformControllerBeans {

    @TestConfiguration(proxyBeanMethods = false)
    @EnableConfigurationProperties({PlatformSettings.class})
    class Settings {}
}
