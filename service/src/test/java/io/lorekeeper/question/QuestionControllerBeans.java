package io.lorekeeper.question;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;

/**
 * What QuestionController needs in {@link io.lorekeeper.support.ControllerSlice}: the module's services behind it as
 * mocks, its settings bound from the real configuration. Declared here because those types are package-private.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@MockitoBean(types = {QuestionIntake.class, QuestionStore.class, QuestionEvents.class, ThreadStore.class})
@Import(QuestionControllerBeans.Settings.class)
public @interface QuestionControllerBeans {

    @TestConfiguration(proxyBeanMethods = false)
    @EnableConfigurationProperties({QuestionSettings.class})
    class Settings {}
}
