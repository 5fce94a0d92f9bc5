package io.lorekeeper.eval;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.test.context.bean.override.mockito.MockitoBean;

/**
 * What EvaluationController needs in {@link io.lorekeeper.support.ControllerSlice}: the module's services behind it as
 * mocks. Declared here because those types are package-private.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@MockitoBean(types = {EvaluationStore.class, EvaluationIntake.class})
public @interface EvaluationControllerBeans {}
