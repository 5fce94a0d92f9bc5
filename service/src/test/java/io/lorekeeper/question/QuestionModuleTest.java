package io.lorekeeper.question;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.modulith.test.ApplicationModuleTest;
import org.springframework.modulith.test.ApplicationModuleTest.BootstrapMode;
import org.springframework.modulith.test.Scenario;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

import io.lorekeeper.document.DocumentDeleted;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.support.TestDatabaseInitializer;
import tools.jackson.databind.json.JsonMapper;

/**
 * The question module with every module it uses (documents, strategies, retrieval, memories, the
 * LLM gateway) and none that use it (evaluations, MCP), against the real database, reacting to
 * the document module's events. The api role schedules jobs without running them, so this context
 * never picks up a job of the full-service tests sharing the database.
 */
@ApplicationModuleTest(mode = BootstrapMode.ALL_DEPENDENCIES)
@ContextConfiguration(initializers = TestDatabaseInitializer.class)
@TestPropertySource(properties = {"lorekeeper.role=api", "lorekeeper.llm.base-url=", "lorekeeper.llm.api-key="})
class QuestionModuleTest {

    @Autowired
    QuestionRepository questions;

    @Autowired
    QuestionStore store;

    @Autowired
    DeletedDocuments listener;

    @Autowired
    JsonMapper json;

    @Autowired
    ApplicationContext context;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    TransactionTemplate transaction;

    @Autowired
    ApplicationEventPublisher events;

    @Test
    void aDeletedDocumentFailsTheQuestionsStillWaitingOnItOnceAndLeavesTheOthers(Scenario scenario) {
        UUID deleted = UUID.randomUUID();
        UUID waiting = ask(deleted, UUID.randomUUID());
        UUID running = ask(deleted);
        store.change(running, Question::start);
        UUID elsewhere = ask(UUID.randomUUID());
        UUID otherTenants = UUID.randomUUID();
        UUID otherTenant = UUID.randomUUID();
        jdbc.sql("INSERT INTO tenant (id, name) VALUES (?, ?)")
                .params(otherTenant, "module-test-" + otherTenant)
                .update();
        tenants.add(otherTenant);
        questions.save(Question.ask(
                otherTenants, otherTenant, List.of(deleted), "Who?", "rag", null, json.valueToTree(Map.of())));
        DocumentDeleted event = new DocumentDeleted(deleted, CurrentTenant.DEFAULT);

        scenario.publish(event)
                .andWaitForStateChange(
                        () -> questions.findById(waiting).orElseThrow(), q -> q.status() == QuestionStatus.FAILED)
                .andVerify(q -> {
                    assertThat(q.failureReason()).isEqualTo("document " + deleted + " was deleted");
                    assertThat(store.trace(waiting, 0)).singleElement().satisfies(e -> {
                        assertThat(e.type()).isEqualTo("run.status");
                        assertThat(json.valueToTree(e.payload()).get("status").asString())
                                .isEqualTo("FAILED");
                    });
                });
        assertThat(status(running)).as("a running question is left to its job").isEqualTo(QuestionStatus.RUNNING);
        assertThat(status(elsewhere)).isEqualTo(QuestionStatus.QUEUED);
        assertThat(questions.findById(otherTenants).orElseThrow().status())
                .as("ids are per tenant")
                .isEqualTo(QuestionStatus.QUEUED);

        long version = questions.findById(waiting).orElseThrow().version();
        listener.on(event); // handed over again, as after a restart
        assertThat(questions.findById(waiting).orElseThrow().version())
                .as("a second delivery changes nothing")
                .isEqualTo(version);
        assertThat(store.trace(waiting, 0)).hasSize(1);
    }

    @Test
    void theEventIsStoredWithTheTransactionThatPublishesItUntilTheListenerHasHandledIt() {
        UUID deleted = UUID.randomUUID();
        UUID waiting = ask(deleted);
        String pending =
                "SELECT count(*) FROM event_publication WHERE completion_date IS NULL AND serialized_event LIKE ?";

        transaction.executeWithoutResult(status -> {
            events.publishEvent(new DocumentDeleted(deleted, CurrentTenant.DEFAULT));
            // what a restart hands to the listener again, should the process stop before it has run
            assertThat(jdbc.sql(pending)
                            .param("%" + deleted + "%")
                            .query(Long.class)
                            .single())
                    .isEqualTo(1);
        });

        await().atMost(Duration.ofSeconds(30)).until(() -> status(waiting) == QuestionStatus.FAILED);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> jdbc.sql(pending)
                                .param("%" + deleted + "%")
                                .query(Long.class)
                                .single()
                        == 0);
    }

    @Test
    void modulesThatUseQuestionsAreNotStarted() {
        assertThat(context.containsBean("questionStore")).isTrue();
        assertThat(context.containsBean("evaluationStore"))
                .as("evaluations ask questions; they are not started")
                .isFalse();
    }

    private final List<UUID> asked = new java.util.ArrayList<>();
    private final List<UUID> tenants = new java.util.ArrayList<>();

    /**
     * These questions have no answer job (the test only needs their rows), so one left QUEUED would
     * look to later tests sharing the database like work that never moves.
     */
    @AfterEach
    void forgetTheQuestions() {
        jdbc.sql("DELETE FROM question WHERE id = ANY(?)")
                .param(asked.toArray(UUID[]::new))
                .update();
        jdbc.sql("DELETE FROM tenant WHERE id = ANY(?)")
                .param(tenants.toArray(UUID[]::new))
                .update();
    }

    private UUID ask(UUID... documents) {
        UUID id = UUID.randomUUID();
        asked.add(id);
        questions.save(Question.ask(
                id,
                CurrentTenant.DEFAULT,
                List.of(documents),
                "When does the ferry leave?",
                "rag",
                null,
                json.valueToTree(Map.of())));
        return id;
    }

    private QuestionStatus status(UUID id) {
        return questions.findById(id).orElseThrow().status();
    }
}
