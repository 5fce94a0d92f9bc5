package io.lorekeeper.document;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.modulith.test.ApplicationModuleTest;
import org.springframework.modulith.test.ApplicationModuleTest.BootstrapMode;
import org.springframework.modulith.test.Scenario;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

import io.lorekeeper.document.ingestion.IngestionPipeline;
import io.lorekeeper.document.intake.CanonicalText;
import io.lorekeeper.document.intake.CanonicalTexts;
import io.lorekeeper.document.lifecycle.Document;
import io.lorekeeper.document.lifecycle.DocumentChanges;
import io.lorekeeper.document.lifecycle.DocumentChanges.NewDocument;
import io.lorekeeper.document.lifecycle.DocumentRows;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.security.TokenSpend;
import io.lorekeeper.support.TestDatabaseInitializer;

/**
 * The document module on its own, with the modules it uses (security, text, platform) and none
 * that use it, against the real database: its aggregate tells the other modules when a document
 * became ready and when one was deleted. The api role schedules jobs without running them, so this
 * context never picks up an ingestion job of the full-service tests sharing the database (it would
 * run it without their stages).
 */
@ApplicationModuleTest(mode = BootstrapMode.DIRECT_DEPENDENCIES)
@ContextConfiguration(initializers = TestDatabaseInitializer.class)
@TestPropertySource(properties = "lorekeeper.role=api")
@Import(DocumentModuleTest.NothingBilled.class)
class DocumentModuleTest {

    /** The security module's quotas read token spend from the llm module, which this test does not start. */
    @TestConfiguration
    static class NothingBilled {
        @Bean
        TokenSpend tokenSpend() {
            return (tenantId, since) -> 0;
        }
    }

    @Autowired
    DocumentChanges changes;

    @Autowired
    DocumentRows rows;

    @Autowired
    CanonicalTexts texts;

    @Autowired
    TransactionTemplate transaction;

    @Autowired
    IngestionPipeline pipeline;

    @Autowired
    ApplicationContext context;

    @Test
    void onlyTheDocumentModuleAndWhatItUsesAreStarted() {
        assertThat(context.getBeanNamesForType(Documents.class)).hasSize(1);
        assertThat(context.containsBean("questionStore"))
                .as("the question module uses documents; it is not started")
                .isFalse();
        assertThat(pipeline.stageNames())
                .as("the module's own stage; other modules' stages are not started")
                .contains("segment")
                .doesNotContain("embed");
    }

    @Test
    void aDocumentWhoseRetrievalStagesAreDoneTellsTheOtherModulesItIsReady(Scenario scenario) {
        UUID id = stored();
        scenario.stimulate(() -> {
                    changes.change(id, Document::startIngestion);
                    for (String stage : pipeline.stageNames()) {
                        changes.changeAndGet(id, d -> d.startStage(stage))
                                .ifPresent(generation -> changes.change(
                                        id, d -> d.finishStage(stage, generation, StageStatus.DONE, null, null)));
                    }
                    changes.change(id, Document::ready);
                })
                .andWaitForEventOfType(DocumentReady.class)
                .matching(ready -> ready.documentId().equals(id))
                .toArriveAndVerify(ready -> assertThat(ready.tenantId()).isEqualTo(CurrentTenant.DEFAULT));
    }

    @Test
    void deletingADocumentTellsTheOtherModules(Scenario scenario) {
        UUID id = stored();
        scenario.stimulate(() -> changes.delete(CurrentTenant.DEFAULT, id))
                .andWaitForEventOfType(DocumentDeleted.class)
                .matching(deleted -> deleted.documentId().equals(id))
                .toArriveAndVerify((deleted, wasDeleted) -> {
                    assertThat(wasDeleted).isTrue();
                    assertThat(rows.find(id)).isEmpty();
                });
    }

    private UUID stored() {
        UUID id = UUID.randomUUID();
        CanonicalText text = CanonicalText.plain("The old mill of Kilmory burned down in 1902.");
        transaction.executeWithoutResult(status -> {
            changes.insert(
                    new NewDocument(
                            id,
                            CurrentTenant.DEFAULT,
                            "Kilmory",
                            DocumentKind.TEXT,
                            IndexProfiles.STANDARD,
                            Map.of(),
                            "module-test-" + id,
                            text.text().length()),
                    pipeline.definitions());
            texts.insert(id, text);
        });
        return id;
    }
}
