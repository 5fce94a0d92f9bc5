package io.lorekeeper.document;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;

import io.lorekeeper.document.files.FileLimits;
import io.lorekeeper.document.intake.DocumentIntake;
import io.lorekeeper.document.intake.SessionAppender;

/**
 * What DocumentController needs in {@link io.lorekeeper.support.ControllerSlice}: the module's services behind it as
 * mocks, and the file limits its upload filter ({@link UploadAdmission}) reads, bound from the real configuration.
 * Declared here because some of those types ({@code DocumentViews}, {@code UploadAdmission}) are package-private.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@MockitoBean(types = {DocumentIntake.class, DocumentViews.class, SessionAppender.class})
@Import(DocumentControllerBeans.Settings.class)
public @interface DocumentControllerBeans {

    @TestConfiguration(proxyBeanMethods = false)
    @EnableConfigurationProperties({FileLimits.class})
    class Settings {}
}
