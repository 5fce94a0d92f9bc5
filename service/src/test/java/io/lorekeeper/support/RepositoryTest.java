package io.lorekeeper.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The JPA layer alone against the real PostgreSQL of {@link TestDatabase}, its schema made by Flyway's
 * migrations: the entities, their repositories, JDBC, transactions, and the few services a repository
 * test drives (EvaluationStore with its Transitions). Every repository test uses exactly this
 * configuration, so they share one context.
 *
 * <p>Each change commits, as it does in the service: a test transaction rolled back at the end would
 * hide what a commit does (the version bump, a lost optimistic-lock race between two threads).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@DataJpaTest(
        showSql = false,
        includeFilters =
                @ComponentScan.Filter(
                        type = FilterType.REGEX,
                        pattern = "io\\.lorekeeper\\.(eval\\.EvaluationStore|platform\\.Transitions)"))
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@ContextConfiguration(initializers = TestDatabaseInitializer.class)
@Transactional(propagation = Propagation.NOT_SUPPORTED)
public @interface RepositoryTest {}
