package io.lorekeeper.retrieval;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.test.context.bean.override.mockito.MockitoBean;

/**
 * What SearchController needs in {@link io.lorekeeper.support.ControllerSlice} beside the mocked {@link Retriever}:
 * the reranking stage, as a mock (no reranker configured). Declared here because the type is package-private.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@MockitoBean(types = {Reranking.class})
public @interface SearchControllerBeans {}
