package io.lorekeeper.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;

import io.lorekeeper.document.DocumentControllerBeans;
import io.lorekeeper.document.Documents;
import io.lorekeeper.eval.EvaluationControllerBeans;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.LlmUsage;
import io.lorekeeper.platform.PlatformControllerBeans;
import io.lorekeeper.question.QuestionControllerBeans;
import io.lorekeeper.retrieval.Retriever;
import io.lorekeeper.retrieval.SearchControllerBeans;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.security.TenantControllerBeans;
import io.lorekeeper.security.TenantQuotas;
import io.lorekeeper.strategy.Strategies;

/**
 * The web edge alone: the API controllers with the service's own MVC pieces around them (problem
 * responses, the request-text advice, the parameter interceptor, the servlet filters that are beans),
 * on MockMvc, with every collaborator behind the controllers a Mockito mock. No database, no jobs:
 * one context start of a second or two, shared by every controller slice because they all carry
 * exactly this configuration. A module's package-private services (mocked) and settings (bound from
 * the real configuration: slices do not scan for settings) come in through its own meta-annotation,
 * e.g. {@link QuestionControllerBeans}.
 *
 * <p>Spring Security is not part of the slice (its test auto-configuration is not on the class path):
 * authentication and the rate limit are the filter chain's, tested with the whole service by the
 * {@code @SecuredIntegrationTest}s. The caller's tenant is what the mocked {@link CurrentTenant} says. An
 * admin key is configured so that the operator's API ({@code /v1/tenants}) is on, as it is in keys mode.
 *
 * <p>GraphController and UsageController read SQL stores directly and are left out, as is
 * EmbeddingModelController, whose changes alter the schema (tested with the whole service).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@WebMvcTest(
        properties = "lorekeeper.security.admin-key=" + ControllerSlice.ADMIN_KEY,
        excludeFilters =
                @ComponentScan.Filter(
                        type = FilterType.REGEX,
                        pattern =
                                "io\\.lorekeeper\\.(mindgraph\\.GraphController|llm\\.UsageController|memory\\.EmbeddingModelController)"))
@MockitoBean(
        types = {
            CurrentTenant.class,
            Documents.class,
            Strategies.class,
            LlmGateway.class,
            LlmUsage.class,
            Retriever.class,
            TenantQuotas.class
        })
@DocumentControllerBeans
@QuestionControllerBeans
@EvaluationControllerBeans
@TenantControllerBeans
@SearchControllerBeans
@PlatformControllerBeans
public @interface ControllerSlice {

    String ADMIN_KEY = "slice-admin-key-0123456789abcdefghijklmnop";
}
