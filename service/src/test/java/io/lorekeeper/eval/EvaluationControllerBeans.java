package io.lorekeeper.eval;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;

/**
 * What EvaluationController needs in {@link io.lorekeeper.support.ControllerSlice}: the module's services behind it as
 * mocks, and the real data folder (the requests' paths are checked against it) with its settings. Declared here because those types
 * are package-private.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@MockitoBean(types = {EvaluationStore.class, EvaluationIntake.class})
@Import({DataFolder.class, EvaluationControllerBeans.Settings.class})
public @interface EvaluationControllerBeans {

    @TestConfiguration(proxyBeanMethods = false)
    @EnableConfigurationProperties({EvalSettings.class})
    class Settings {}
}
