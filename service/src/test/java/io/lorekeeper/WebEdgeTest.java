package io.lorekeeper;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import jakarta.servlet.Filter;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;

/**
 * HTTP is the web edge's business: domain code and background jobs refuse with domain exceptions
 * ({@code ApiProblem} carries a kind, not a status; {@code IllegalTransitionException}), and only
 * controllers, servlet filters, the security setup and the platform's problem rendering speak HTTP.
 * An answer job that refused with an HTTP status would have no request to send it to.
 */
class WebEdgeTest {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(location -> !location.contains("/test-classes/"))
            .importPackages("io.lorekeeper");

    @Test
    void onlyTheWebEdgeUsesHttpTypes() {
        noClasses()
                .that()
                .resideOutsideOfPackage("io.lorekeeper.platform")
                .and()
                .haveSimpleNameNotEndingWith("Controller")
                .and()
                .areNotAssignableTo(Filter.class)
                .and()
                .doNotHaveSimpleName("FilterProblems")
                .and()
                .doNotHaveSimpleName("SecurityConfiguration")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.springframework.http..")
                .because(
                        "background jobs and domain code must not carry HTTP types; the web edge maps their exceptions")
                .check(PRODUCTION);
    }
}
