package io.lorekeeper.comorag;

import static io.lorekeeper.comorag.ComoRagFixtures.json;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.DocumentStatus;
import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.text.TokenCounter;
import tools.jackson.databind.JsonNode;

/**
 * ComoRAG's index stages over real ingested documents with scripted builders: built only on
 * demand, what each layer holds and the prompts that built it, and resumption after a failure.
 */
@LlmIntegrationTest
class ComoRagIndexTest {

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    JdbcClient jdbc;

    @BeforeEach
    void reset() {
        model.reset();
        ComoRagFixtures.scriptIndex(model);
    }

    @Test
    void theIndexIsBuiltOnDemandAndAQuestionWithoutItIsRefusedSayingHowToBuildIt() {
        String text = ComoRagFixtures.chronicle(10);
        UUID id = api.ingest(aText(text).titled("Ten chapters").build());

        JsonNode doc = api.get("/v1/documents/" + id).json();
        for (JsonNode stage : doc.get("stages")) {
            if (ComoRagFixtures.STAGES.contains(stage.get("name").asString())) {
                assertThat(stage.get("status").asString()).isEqualTo("SKIPPED");
                assertThat(stage.toString()).contains("reindex").contains("deep");
            }
        }
        assertThat(model.calls())
                .extracting(ScriptedChatModel.Call::template)
                .doesNotContain("comorag/triples", "comorag/semantic-summary", "comorag/episodic-summary");
        // a question that may not start building the memories it needs is refused, saying how to build them
        Api.Response refused = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(id),
                        "question",
                        "Who found the compass?",
                        "strategy",
                        "comorag",
                        "options",
                        Map.of("buildMemories", false)));
        assertThat(refused.status()).as(refused.body()).isEqualTo(409);
        assertThat(refused.json().get("type").asString()).endsWith("/memory-not-ready");
        assertThat(refused.json().get("stage").asString()).isIn(ComoRagFixtures.STAGES);
        assertThat(refused.json().get("howToBuild").asString()).contains("/v1/documents/" + id + "/reindex");
        assertThat(refused.json().get("missing"))
                .extracting(tools.jackson.databind.JsonNode::asString)
                .as("one reindex call builds every missing layer")
                .containsExactlyInAnyOrderElementsOf(ComoRagFixtures.STAGES);

        // the veridical layer alone: enough for the ablation without the summary layers, not for the full method
        assertThat(api.post("/v1/documents/" + id + "/reindex", Map.of("stages", List.of("veridical", "triples")))
                        .status())
                .isEqualTo(202);
        api.awaitStage(id, "triples", "DONE", Duration.ofMinutes(2));
        Api.Response full = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(id),
                        "question",
                        "Who found the compass?",
                        "strategy",
                        "comorag",
                        "options",
                        Map.of("buildMemories", false)));
        assertThat(full.status()).as(full.body()).isEqualTo(409);
        assertThat(full.json().get("stage").asString()).isIn("semantic", "episodic");
        model.on("comorag/answer").reply(json(Map.of("canAnswer", false, "answer", "", "confidence", 0.1)));
        JsonNode ablated = api.ask(Map.of(
                "documentIds",
                List.of(id),
                "question",
                "Who found the compass?",
                "strategy",
                "comorag",
                "options",
                Map.of("layers", List.of("veridical"), "maxCycles", 0, "abstain", true)));
        assertThat(ablated.get("status").asString()).as(ablated.toString()).isEqualTo("DONE");
        assertThat(ablated.get("answer").asString()).isEqualTo(TryAnswer.NOT_SETTLED);
        model.reset();
        ComoRagFixtures.scriptIndex(model);

        ComoRagFixtures.buildIndex(api, id);

        List<Map<String, Object>> units = jdbc.sql(
                        "SELECT ordinal, first_chunk, last_chunk, start_offset, end_offset, token_count, "
                                + "cardinality(entities) AS entities FROM comorag_unit WHERE document_id = ? ORDER BY ordinal")
                .param(id)
                .query()
                .listOfRows();
        int chunks = jdbc.sql("SELECT count(*) FROM chunk WHERE document_id = ?")
                .param(id)
                .query(Integer.class)
                .single();
        assertThat(units).isNotEmpty();
        int expectedFirst = 0;
        for (Map<String, Object> unit : units) {
            assertThat(unit.get("first_chunk"))
                    .as("units are consecutive runs of chunks")
                    .isEqualTo(expectedFirst);
            expectedFirst = (int) unit.get("last_chunk") + 1;
            int tokens =
                    TokenCounter.count(text.substring((int) unit.get("start_offset"), (int) unit.get("end_offset")));
            if (!unit.get("first_chunk").equals(unit.get("last_chunk"))) {
                assertThat((int) unit.get("token_count")).isLessThanOrEqualTo(512);
            }
            assertThat(tokens).isBetween(1, 600);
            assertThat(unit.get("entities"))
                    .as("every unit went through the triples stage")
                    .isNotNull();
        }
        assertThat(expectedFirst).as("every chunk is in a unit").isEqualTo(chunks);
        assertThat(model.calls("comorag/triples")).hasSize(units.size());
        // the stage extracts units in parallel, so calls arrive in any order: each unit is read by exactly one of them
        for (Map<String, Object> unit : units) {
            String opening = text.substring((int) unit.get("start_offset"), (int) unit.get("end_offset"))
                    .strip();
            String probe = opening.substring(0, Math.min(80, opening.length()));
            assertThat(model.calls("comorag/triples"))
                    .as("triples calls reading unit %s", unit.get("ordinal"))
                    .filteredOn(c -> c.user().contains(probe))
                    .hasSize(1);
        }
        assertThat(jdbc.sql("SELECT count(*) FROM comorag_triple WHERE document_id = ?")
                        .param(id)
                        .query(Integer.class)
                        .single())
                .isEqualTo(10);

        int n = units.size();
        int window = EpisodicWindows.size(n);
        List<Map<String, Object>> episodes = summaries(id, "episodic");
        assertThat(episodes).hasSize((n + window - 1) / window);
        for (int i = 0; i < episodes.size(); i++) {
            List<Integer> members = ints(episodes.get(i).get("units"));
            assertThat(members.getFirst()).isEqualTo(i * window);
            assertThat(members).hasSize(Math.min(window, n - i * window));
            assertThat(episodes.get(i).get("start_offset"))
                    .isEqualTo(units.get(members.getFirst()).get("start_offset"));
            assertThat(episodes.get(i).get("end_offset"))
                    .isEqualTo(units.get(members.getLast()).get("end_offset"));
        }
        ScriptedChatModel.Call firstWindow = model.calls("comorag/episodic-summary").stream()
                .filter(c -> c.system().contains("parts 1 to " + window + " of the " + n + " parts"))
                .findFirst()
                .orElseThrow();
        String unit0 = text.substring(
                (int) units.get(0).get("start_offset"), (int) units.get(0).get("end_offset"));
        String unit1 = text.substring(
                (int) units.get(1).get("start_offset"), (int) units.get(1).get("end_offset"));
        assertThat(firstWindow.user().indexOf(unit0.substring(0, 80)))
                .isLessThan(firstWindow.user().indexOf(unit1.substring(0, 80)));

        List<Map<String, Object>> semantic = summaries(id, "semantic");
        Set<Integer> covered = new HashSet<>();
        int levelOne = 0;
        int top = 0;
        for (Map<String, Object> s : semantic) {
            top = Math.max(top, (int) s.get("level"));
            if ((int) s.get("level") == 1) {
                levelOne++;
                List<Integer> members = ints(s.get("units"));
                assertThat(members).hasSizeLessThanOrEqualTo(7).isSorted();
                members.forEach(u -> assertThat(covered.add(u))
                        .as("unit %d in two level-1 clusters", u)
                        .isTrue());
            }
        }
        assertThat(covered).hasSize(n);
        int finalTop = top;
        assertThat(semantic.stream().filter(s -> (int) s.get("level") == finalTop))
                .hasSize(1);
        assertThat(levelOne).isGreaterThanOrEqualTo((n + 6) / 7);
        assertThat(model.calls("comorag/semantic-summary")).hasSize(semantic.size());

        JsonNode built = api.get("/v1/documents/" + id).json();
        for (JsonNode stage : built.get("stages")) {
            if (ComoRagFixtures.STAGES.contains(stage.get("name").asString())) {
                assertThat(stage.get("done").asInt())
                        .as(stage.toString())
                        .isEqualTo(stage.get("total").asInt())
                        .isPositive();
            }
        }
        model.on("comorag/answer").reply(json(Map.of("canAnswer", false, "answer", "", "confidence", 0.1)));
        JsonNode accepted = api.ask(Map.of(
                "documentIds",
                List.of(id),
                "question",
                "Who found the compass?",
                "strategy",
                "comorag",
                "options",
                Map.of("maxCycles", 0, "abstain", true)));
        assertThat(accepted.get("status").asString())
                .as("the index now exists: " + accepted)
                .isEqualTo("DONE");
        assertThat(model.calls()).extracting(ScriptedChatModel.Call::template).endsWith("comorag/answer");
    }

    @Test
    void aQuestionOnADocumentWithoutTheIndexStartsBuildingItWaitsForItAndAnswers() {
        String text = ComoRagFixtures.chronicle(6);
        UUID id = api.ingest(aText(text).titled("Six chapters").build());
        assertThat(stageStatuses(id))
                .as("the default profile skips the on-demand layers")
                .containsOnly("SKIPPED");
        model.on("comorag/episodic-summary").delay(Duration.ofMillis(2500)); // the build takes long enough to be seen
        model.on("comorag/answer").reply(json(Map.of("canAnswer", false, "answer", "", "confidence", 0.1)));

        Api.Response asked = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(id),
                        "question",
                        "Who found the compass?",
                        "strategy",
                        "comorag",
                        "waitSeconds",
                        0,
                        "options",
                        Map.of("maxCycles", 0, "abstain", true)));

        assertThat(asked.status()).as(asked.body()).isEqualTo(202);
        UUID question = UUID.fromString(asked.json().get("id").asString());
        assertThat(stageStatuses(id))
                .as("asking started the build, as a reindex naming the layers does")
                .doesNotContain("SKIPPED");
        JsonNode waiting = awaitWaiting(question);
        assertThat(waiting.get("status").asString()).isEqualTo("QUEUED");
        assertThat(waiting.get("waitingFor"))
                .extracting(w -> w.get("stage").asString())
                .isSubsetOf(ComoRagFixtures.STAGES)
                .isNotEmpty();
        assertThat(waiting.get("waitingFor").get(0).get("why").asString()).contains("built on demand");

        JsonNode done = api.awaitQuestion(question, Duration.ofMinutes(2));
        assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("DONE");
        assertThat(done.get("answer").asString()).isEqualTo(TryAnswer.NOT_SETTLED);
        assertThat(stageStatuses(id)).containsOnly("DONE");
        List<String> templates =
                model.calls().stream().map(ScriptedChatModel.Call::template).toList();
        assertThat(templates)
                .as("the index was built, then the question answered from it")
                .containsSubsequence("comorag/triples", "comorag/episodic-summary", "comorag/answer");
        assertThat(templates.lastIndexOf("comorag/triples")).isLessThan(templates.indexOf("comorag/answer"));
        assertThat(templates.lastIndexOf("comorag/episodic-summary")).isLessThan(templates.indexOf("comorag/answer"));
        assertThat(templates.lastIndexOf("comorag/semantic-summary")).isLessThan(templates.indexOf("comorag/answer"));
        JsonNode events = api.get("/v1/questions/" + question + "/trace").json().get("events");
        List<String> types =
                events.valueStream().map(e -> e.get("type").asString()).toList();
        assertThat(types).containsSubsequence("run.memory-build", "run.waiting", "run.status");
        JsonNode build = events.valueStream()
                .filter(e -> e.get("type").asString().equals("run.memory-build"))
                .findFirst()
                .orElseThrow()
                .get("payload");
        assertThat(build.get("memories"))
                .extracting(m -> m.get("stage").asString())
                .containsExactlyInAnyOrderElementsOf(ComoRagFixtures.STAGES);
        assertThat(build.get("why").asString()).contains("comorag").contains("built on demand");
        int triples = model.calls("comorag/triples").size();

        // a second question finds the index built: nothing is built again
        JsonNode again = api.ask(Map.of(
                "documentIds",
                List.of(id),
                "question",
                "Who found the lantern?",
                "strategy",
                "comorag",
                "options",
                Map.of("maxCycles", 0, "abstain", true)));
        assertThat(again.get("status").asString()).as(again.toString()).isEqualTo("DONE");
        assertThat(model.calls("comorag/triples")).hasSize(triples);
        assertThat(api.get("/v1/questions/" + again.get("id").asString() + "/trace")
                        .json()
                        .get("events")
                        .valueStream()
                        .map(e -> e.get("type").asString()))
                .doesNotContain("run.memory-build", "run.waiting");
    }

    @Test
    void aUnitWhoseTriplesReplyStaysUnusableIsACountedGapThatAReindexWithoutStagesFillsAlone() {
        String text = ComoRagFixtures.chronicle(8);
        AtomicBoolean broken = new AtomicBoolean(true);
        model.on("comorag/triples").reply(call -> {
            String unit = firstUser(call);
            if (broken.get() && unit.contains("Evangeline lives in")) {
                return "Evangeline is the main character of this part; she lives somewhere.";
            }
            return json(Map.of("entities", List.of("X"), "triples", List.of()));
        });
        Api.Response posted =
                api.post("/v1/documents", Map.of("text", text, "title", "Eight chapters", "profile", "deep"));
        UUID id = UUID.fromString(posted.json().get("id").asString());
        JsonNode ready = api.awaitDocument(id, "READY", Duration.ofMinutes(2));

        JsonNode triples = stage(ready, "triples");
        assertThat(triples.get("status").asString()).as(triples.toString()).isEqualTo("DONE");
        List<Integer> gaps = jdbc.sql(
                        "SELECT ordinal FROM comorag_unit WHERE document_id = ? AND entities IS NULL ORDER BY ordinal")
                .param(id)
                .query(Integer.class)
                .list();
        assertThat(gaps).as("one unit tells of Evangeline").hasSize(1);
        assertThat(triples.get("failed").asInt()).isEqualTo(1);
        assertThat(triples.get("failures").get(0).asString())
                .startsWith("unit " + gaps.getFirst() + ": ")
                .contains("comorag/triples");
        int units = jdbc.sql("SELECT count(*) FROM comorag_unit WHERE document_id = ?")
                .param(id)
                .query(Integer.class)
                .single();
        assertThat(triples.get("done").asInt()).isEqualTo(units - 1);
        assertThat(triples.get("total").asInt()).isEqualTo(units);
        assertThat(model.calls("comorag/triples")).as("one call per unit").hasSize(units);
        assertThat(model.calls("comorag/triples#repair")).hasSize(1);
        for (String layer : List.of("semantic", "episodic")) {
            assertThat(stage(ready, layer).get("status").asString())
                    .as("the layers after it are built regardless")
                    .isEqualTo("DONE");
        }
        int summaries = model.calls("comorag/semantic-summary").size()
                + model.calls("comorag/episodic-summary").size();

        broken.set(false);
        assertThat(api.post("/v1/documents/" + id + "/reindex", Map.of()).status())
                .isEqualTo(202);
        JsonNode filled = awaitNoGaps(id, "triples");

        assertThat(model.calls("comorag/triples"))
                .as("only the unit without triples is asked again")
                .hasSize(units + 1);
        assertThat(firstUser(model.calls("comorag/triples").getLast())).contains("Evangeline lives in");
        assertThat(jdbc.sql("SELECT count(*) FROM comorag_unit WHERE document_id = ? AND entities IS NULL")
                        .param(id)
                        .query(Integer.class)
                        .single())
                .isZero();
        assertThat(stage(filled, "triples").get("done").asInt()).isEqualTo(units);
        assertThat(model.calls("comorag/semantic-summary").size()
                        + model.calls("comorag/episodic-summary").size())
                .as("stages without gaps are not run again")
                .isEqualTo(summaries);
    }

    @Test
    void aSummaryWhoseReplyStaysUnusableIsAGapOfItsLayerThatAReindexWithoutStagesWritesAlone() {
        String text = ComoRagFixtures.chronicle(13);
        AtomicBoolean broken = new AtomicBoolean(true);
        model.on("comorag/episodic-summary").reply(call -> {
            if (broken.get() && call.system().contains("parts 4 to")) {
                return "{}"; // no summary, and none after the repair either
            }
            return json(Map.of("summary", "Plot of a stretch."));
        });
        Api.Response posted =
                api.post("/v1/documents", Map.of("text", text, "title", "Thirteen chapters", "profile", "deep"));
        assertThat(posted.status()).as("a document of its own").isEqualTo(202);
        UUID id = UUID.fromString(posted.json().get("id").asString());
        JsonNode ready = api.awaitDocument(id, "READY", Duration.ofMinutes(2));
        int units = jdbc.sql("SELECT count(*) FROM comorag_unit WHERE document_id = ?")
                .param(id)
                .query(Integer.class)
                .single();
        int windows = (units + EpisodicWindows.size(units) - 1) / EpisodicWindows.size(units);

        JsonNode episodic = stage(ready, "episodic");
        assertThat(episodic.get("status").asString()).as(episodic.toString()).isEqualTo("DONE");
        assertThat(episodic.get("failed").asInt()).isEqualTo(1);
        assertThat(episodic.get("failures").get(0).asString())
                .startsWith("episodic level 1 group 1 (u:")
                .contains("comorag/episodic-summary");
        assertThat(summaries(id, "episodic"))
                .as("every other window has its summary")
                .hasSize(windows - 1)
                .extracting(s -> s.get("ordinal"))
                .doesNotContain(1);
        assertThat(model.calls("comorag/episodic-summary")).hasSize(windows);

        broken.set(false);
        assertThat(api.post("/v1/documents/" + id + "/reindex", Map.of()).status())
                .isEqualTo(202);
        awaitNoGaps(id, "episodic");

        assertThat(model.calls("comorag/episodic-summary"))
                .as("only the missing window is summarised again")
                .hasSize(windows + 1);
        assertThat(model.calls("comorag/episodic-summary").getLast().system()).contains("parts 4 to");
        assertThat(summaries(id, "episodic"))
                .extracting(s -> s.get("ordinal"))
                .containsExactlyElementsOf(
                        java.util.stream.IntStream.range(0, windows).boxed().toList());
    }

    private List<String> stageStatuses(UUID id) {
        return api.get("/v1/documents/" + id)
                .json()
                .get("stages")
                .valueStream()
                .filter(s -> ComoRagFixtures.STAGES.contains(s.get("name").asString()))
                .map(s -> s.get("status").asString())
                .toList();
    }

    private static JsonNode stage(JsonNode document, String name) {
        return document.get("stages")
                .valueStream()
                .filter(s -> s.get("name").asString().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private JsonNode awaitNoGaps(UUID id, String name) {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            JsonNode doc = api.get("/v1/documents/" + id).json();
            JsonNode s = stage(doc, name);
            if (s.get("status").asString().equals("DONE") && s.get("failed") == null) {
                return doc;
            }
            assertThat(System.nanoTime())
                    .as("gaps of " + name + " not filled: " + s)
                    .isLessThan(deadline);
            pause();
        }
    }

    private JsonNode awaitWaiting(UUID question) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        JsonNode view;
        while ((view = api.get("/v1/questions/" + question).json()).get("waitingFor") == null) {
            assertThat(view.get("status").asString())
                    .as("the question ran before its memory was built: " + view)
                    .isEqualTo("QUEUED");
            assertThat(System.nanoTime())
                    .as("question " + question + " never said what it waits for")
                    .isLessThan(deadline);
            pause();
        }
        return view;
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The unit a call is about: its first user message (a repair call's last one is the repair request). */
    private static String firstUser(ScriptedChatModel.Call call) {
        return call.messages().stream()
                .filter(m -> m.getMessageType() == org.springframework.ai.chat.messages.MessageType.USER)
                .findFirst()
                .orElseThrow()
                .getText();
    }

    @Test
    void aFailedStageResumesWithTheUnitsItHadNotDone() {
        String text = ComoRagFixtures.chronicle(12);
        AtomicBoolean failed = new AtomicBoolean();
        model.on("comorag/triples").reply(call -> {
            if (call.user().contains("Evangeline lives in") && failed.compareAndSet(false, true)) {
                throw new IllegalStateException("the model went away");
            }
            return json(Map.of("entities", List.of("X"), "triples", List.of()));
        });
        Api.Response posted =
                api.post("/v1/documents", Map.of("text", text, "title", "Twelve chapters", "profile", "deep"));
        UUID id = UUID.fromString(posted.json().get("id").asString());
        api.awaitStage(id, "triples", "FAILED", Duration.ofMinutes(2));
        api.awaitStage(id, "episodic", "DONE", Duration.ofMinutes(2));

        List<Integer> pending = jdbc.sql(
                        "SELECT ordinal FROM comorag_unit WHERE document_id = ? AND entities IS NULL ORDER BY ordinal")
                .param(id)
                .query(Integer.class)
                .list();
        int total = jdbc.sql("SELECT count(*) FROM comorag_unit WHERE document_id = ?")
                .param(id)
                .query(Integer.class)
                .single();
        assertThat(pending).isNotEmpty().hasSizeLessThan(total);
        List<String> pendingTexts = new ArrayList<>();
        for (int ordinal : pending) {
            pendingTexts.add(jdbc.sql(
                            "SELECT substring(t.text FROM u.start_offset + 1 FOR u.end_offset - u.start_offset) FROM comorag_unit u "
                                    + "JOIN document_text t ON t.document_id = u.document_id WHERE u.document_id = ? AND u.ordinal = ?")
                    .params(id, ordinal)
                    .query(String.class)
                    .single());
        }
        model.reset();
        model.on("comorag/triples").reply(json(Map.of("entities", List.of("Y"), "triples", List.of())));

        assertThat(api.post("/v1/documents/" + id + "/reindex", Map.of()).status())
                .isEqualTo(202);
        api.awaitStage(id, "triples", "DONE", Duration.ofMinutes(2));

        List<ScriptedChatModel.Call> resumed = model.calls("comorag/triples");
        assertThat(resumed)
                .as("only the units without triples are asked for again")
                .hasSize(pending.size());
        for (int i = 0; i < pending.size(); i++) {
            String unitText = pendingTexts.get(i);
            assertThat(resumed).anySatisfy(c -> assertThat(c.user()).contains(unitText));
        }
        assertThat(model.calls("comorag/semantic-summary"))
                .as("the other layers were done")
                .isEmpty();
        assertThat(jdbc.sql("SELECT count(*) FROM comorag_unit WHERE document_id = ? AND entities IS NULL")
                        .param(id)
                        .query(Integer.class)
                        .single())
                .isZero();
    }

    @Test
    void rebuildingASummaryLayerAsksOnlyForTheGroupsItDoesNotHave() {
        String text = ComoRagFixtures.chronicle(14);
        AtomicBoolean failed = new AtomicBoolean();
        model.on("comorag/episodic-summary").reply(call -> {
            if (call.system().contains("parts 4 to") && failed.compareAndSet(false, true)) {
                throw new IllegalStateException("the model went away");
            }
            return json(Map.of("summary", "Plot of a stretch."));
        });
        Api.Response posted =
                api.post("/v1/documents", Map.of("text", text, "title", "Fourteen chapters", "profile", "deep"));
        UUID id = UUID.fromString(posted.json().get("id").asString());
        api.awaitStage(id, "episodic", "FAILED", Duration.ofMinutes(2));
        int stored = summaries(id, "episodic").size();
        int units = jdbc.sql("SELECT count(*) FROM comorag_unit WHERE document_id = ?")
                .param(id)
                .query(Integer.class)
                .single();
        int windows = (units + EpisodicWindows.size(units) - 1) / EpisodicWindows.size(units);
        assertThat(stored)
                .as("stored %s of %d windows over %d units", summaries(id, "episodic"), windows, units)
                .isLessThan(windows);
        model.reset();
        model.on("comorag/episodic-summary").reply(json(Map.of("summary", "Plot of a stretch, again.")));

        assertThat(api.post("/v1/documents/" + id + "/reindex", Map.of()).status())
                .isEqualTo(202);
        api.awaitStage(id, "episodic", "DONE", Duration.ofMinutes(2));

        assertThat(model.calls("comorag/episodic-summary"))
                .as("stored %d of %d windows over %d units", stored, windows, units)
                .hasSize(windows - stored);
        assertThat(summaries(id, "episodic")).hasSize(windows);
        assertThat(summaries(id, "episodic"))
                .extracting(s -> s.get("ordinal"))
                .containsExactlyElementsOf(
                        java.util.stream.IntStream.range(0, windows).boxed().toList());
    }

    @Test
    void aConversationThatGrewGetsUnitsAndTriplesForItsNewSessionsOnlyAndKeepsTheWindowsThatDidNotChange() {
        io.lorekeeper.support.TestDocuments.ConversationBuilder chat =
                io.lorekeeper.support.TestDocuments.aConversation().titled("Letters from the coast");
        for (int i = 0; i < 4; i++) {
            chat.session(
                    "9:00 am on " + (i + 1) + " May, 2024",
                    "Rosalind",
                    ComoRagFixtures.NAMES[i] + " lives in the harbour town, session " + (i + 1) + ".",
                    "Tobias",
                    "Noted for session " + (i + 1) + ".");
        }
        Map<String, Object> body = new java.util.HashMap<>(chat.build());
        body.put("profile", "deep");
        UUID id = api.ingest(body);
        assertThat(model.calls("comorag/triples")).hasSize(4);
        assertThat(summaries(id, "episodic"))
                .extracting(s -> ints(s.get("units")))
                .containsExactly(List.of(0, 1, 2), List.of(3));
        model.reset();
        ComoRagFixtures.scriptIndex(model);

        Api.Response appended = api.post(
                "/v1/documents/" + id + "/sessions",
                Map.of(
                        "sessions",
                        List.of(
                                Map.of(
                                        "dateTime",
                                        "9:00 am on 5 May, 2024",
                                        "turns",
                                        List.of(Map.of(
                                                "speaker", "Rosalind", "text", "Isadora arrived by the ferry."))),
                                Map.of(
                                        "dateTime",
                                        "9:00 am on 6 May, 2024",
                                        "turns",
                                        List.of(Map.of(
                                                "speaker", "Tobias", "text", "Jasper left on the mail coach."))))));
        assertThat(appended.status()).as(appended.body()).isEqualTo(202);
        api.awaitDocument(id, "READY", Duration.ofMinutes(2));

        assertThat(jdbc.sql("SELECT count(*) FROM comorag_unit WHERE document_id = ?")
                        .param(id)
                        .query(Integer.class)
                        .single())
                .isEqualTo(6);
        assertThat(model.calls("comorag/triples"))
                .as("the new sessions' units only")
                .hasSize(2)
                .anySatisfy(c -> assertThat(c.user()).contains("Isadora arrived by the ferry."))
                .anySatisfy(c -> assertThat(c.user()).contains("Jasper left on the mail coach."));
        assertThat(summaries(id, "episodic"))
                .extracting(s -> ints(s.get("units")))
                .containsExactly(List.of(0, 1, 2), List.of(3, 4, 5));
        assertThat(model.calls("comorag/episodic-summary"))
                .as("the first window is kept")
                .hasSize(1);
    }

    @Autowired
    ComoRagStore store;

    @Autowired
    GraphIndex graphs;

    @Autowired
    io.lorekeeper.retrieval.Retriever retriever;

    @Autowired
    io.lorekeeper.document.Documents documents;

    private static final java.util.regex.Pattern UNIT =
            java.util.regex.Pattern.compile("<passage>\\n(.*?)\\n</passage>", java.util.regex.Pattern.DOTALL);
    private static final java.util.regex.Pattern LIVES_IN =
            java.util.regex.Pattern.compile("(\\p{Lu}\\p{L}+) lives in (\\p{Lu}\\p{L}+)");

    /**
     * Adela's unit says she wrote to "the lighthouse keeper"; Desmond's unit says the keeper of the
     * lighthouse repairs clocks (and lists "lighthouse keeper" among its entities): a probe naming
     * Adela reaches Desmond's unit in two hops (Adela, fact, the lighthouse keeper, passage).
     */
    private void scriptTwoHopTriples() {
        model.on("comorag/triples").reply(call -> {
            String unit = ComoRagFixtures.group(UNIT, call.user());
            java.util.regex.Matcher lives = LIVES_IN.matcher(unit);
            List<String> entities = new ArrayList<>();
            List<Map<String, String>> triples = new ArrayList<>();
            while (lives.find()) {
                entities.add(lives.group(1));
                entities.add(lives.group(2));
                triples.add(Map.of("subject", lives.group(1), "predicate", "lives in", "object", lives.group(2)));
            }
            if (unit.contains("Adela lives in")) {
                triples.add(
                        Map.of("subject", "Adela", "predicate", "sent a letter to", "object", "the lighthouse keeper"));
            }
            if (unit.contains("Desmond lives in")) {
                entities.add("lighthouse keeper");
                triples.add(Map.of("subject", "the lighthouse keeper", "predicate", "repairs", "object", "old clocks"));
            }
            return json(Map.of("entities", entities, "triples", triples));
        });
    }

    @Test
    void theTriplesStageBuildsTheVeridicalGraphAndAProbeNamingOneEntityReachesPassagesTwoHopsAway() {
        scriptTwoHopTriples();
        UUID id = api.ingest(
                aText(ComoRagFixtures.chronicle(7)).titled("Seven chapters").build());
        assertThat(api.post("/v1/documents/" + id + "/reindex", Map.of("stages", List.of("veridical", "triples")))
                        .status())
                .isEqualTo(202);
        api.awaitStage(id, "triples", "DONE", Duration.ofMinutes(2));

        EntityGraph g = store.graph(id).orElseThrow();
        List<ComoRagStore.Unit> units = store.units(id);
        String text = documents.text(id);
        int adela = unitSaying(units, text, "Adela lives in");
        int desmond = unitSaying(units, text, "Desmond lives in");
        assertThat(g.unitCount()).isEqualTo(units.size());
        assertThat(g.entities())
                .contains(
                        "adela",
                        "ashford",
                        "desmond",
                        "dunmore",
                        "the lighthouse keeper",
                        "lighthouse keeper",
                        "old clocks");
        assertThat(edge(g, EntityGraph.FACT, "adela", "the lighthouse keeper")).isTrue();
        assertThat(edge(g, EntityGraph.FACT, "adela", "ashford")).isTrue();
        assertThat(edge(g, EntityGraph.FACT, "the lighthouse keeper", "old clocks"))
                .isTrue();
        assertThat(edge(g, EntityGraph.FACT, "adela", "desmond")).isFalse();
        assertThat(edge(g, EntityGraph.SYNONYM, "the lighthouse keeper", "lighthouse keeper"))
                .as("names embedded at least 0.8 alike")
                .isTrue();
        assertThat(edge(g, EntityGraph.SYNONYM, "adela", "desmond")).isFalse();
        assertThat(passage(g, "adela", adela)).isTrue();
        assertThat(passage(g, "the lighthouse keeper", adela)).isTrue();
        assertThat(passage(g, "the lighthouse keeper", desmond)).isTrue();
        assertThat(passage(g, "lighthouse keeper", desmond)).isTrue();
        assertThat(passage(g, "adela", desmond)).isFalse();
        assertThat(jdbc.sql("SELECT count(*) FROM comorag_entity WHERE document_id = ?")
                        .param(id)
                        .query(Integer.class)
                        .single())
                .isEqualTo(g.entityCount());

        String probe = "Whom did Adela write to?";
        DocumentInfo info = new DocumentInfo(
                id,
                UUID.randomUUID(),
                "Seven chapters",
                DocumentKind.TEXT,
                "default",
                DocumentStatus.READY,
                text.length(),
                TokenCounter.count(text),
                0);
        float[] vector = embeddings.query(probe);
        TriRetriever graph = new TriRetriever(
                store,
                retriever,
                List.of(info),
                documents::text,
                graphs::load,
                ComoRagOptions.GRAPH,
                FactFilter.marginOnly(),
                false);
        TriRetriever fusion = new TriRetriever(
                store,
                retriever,
                List.of(info),
                documents::text,
                graphs::load,
                ComoRagOptions.FUSION,
                FactFilter.marginOnly(),
                false);
        TriRetriever.LayerResult byGraph = graph.veridical(probe, vector, 100_000, Set.of());
        TriRetriever.LayerResult byFusion = fusion.veridical(probe, vector, 100_000, Set.of());

        List<Integer> graphOrder = order(byGraph);
        List<Integer> fusionOrder = order(byFusion);
        System.out.println("graph " + graphOrder + " fusion " + fusionOrder + " adela " + adela + " desmond " + desmond
                + " ranking " + byGraph.ranking());
        List<Integer> unrelated = units.stream()
                .map(ComoRagStore.Unit::ordinal)
                .filter(u -> u != adela
                        && u != desmond
                        && !units.get(u).span().of(text).contains("Adela"))
                .toList();
        assertThat(unrelated).isNotEmpty();
        for (int u : unrelated) {
            assertThat(graphOrder.indexOf(desmond))
                    .as("the graph ranks the unit two hops away above unrelated unit %d", u)
                    .isLessThan(rank(graphOrder, u));
        }
        assertThat(unrelated.stream().anyMatch(u -> rank(fusionOrder, u) < fusionOrder.indexOf(desmond)))
                .as("the fusion ranks some unrelated unit above it")
                .isTrue();
        assertThat(byGraph.ranking().seeds())
                .extracting(ComoRagEvent.Seed::entity)
                .contains("adela");
        assertThat(byGraph.ranking().topPassages()).isNotNull();
        assertThat(byGraph.ranking().pagerankMs()).isNotNull();

        // a document without triples falls back to dense retrieval
        UUID bare = api.ingest(
                aText(ComoRagFixtures.chronicle(2)).titled("Two chapters").build());
        assertThat(api.post("/v1/documents/" + bare + "/reindex", Map.of("stages", List.of("veridical")))
                        .status())
                .isEqualTo(202);
        api.awaitStage(bare, "veridical", "DONE", Duration.ofMinutes(2));
        DocumentInfo bareInfo = new DocumentInfo(
                bare, UUID.randomUUID(), "Two chapters", DocumentKind.TEXT, "default", DocumentStatus.READY, 1, 1, 0);
        TriRetriever.LayerResult dense = new TriRetriever(
                        store,
                        retriever,
                        List.of(bareInfo),
                        documents::text,
                        graphs::load,
                        ComoRagOptions.GRAPH,
                        FactFilter.marginOnly(),
                        false)
                .veridical(probe, vector, 100_000, Set.of());
        assertThat(dense.items()).isNotEmpty();
        assertThat(dense.ranking().fallback()).startsWith("dense");
    }

    @Autowired
    io.lorekeeper.memory.Embeddings embeddings;

    private static int unitSaying(List<ComoRagStore.Unit> units, String text, String phrase) {
        return units.stream()
                .filter(u -> u.span().of(text).contains(phrase))
                .findFirst()
                .orElseThrow()
                .ordinal();
    }

    private static List<Integer> order(TriRetriever.LayerResult result) {
        return result.items().stream().map(e -> e.units().getFirst()).toList();
    }

    private static int rank(List<Integer> order, int unit) {
        int i = order.indexOf(unit);
        return i < 0 ? Integer.MAX_VALUE : i;
    }

    private static boolean edge(EntityGraph g, byte kind, String a, String b) {
        int x = g.entityNode(a);
        int y = g.entityNode(b);
        return g.edges(kind).stream().anyMatch(e -> (e.a() == x && e.b() == y) || (e.a() == y && e.b() == x));
    }

    private static boolean passage(EntityGraph g, String entity, int unit) {
        return g.edges(EntityGraph.PASSAGE).stream()
                .anyMatch(e -> e.a() == g.entityNode(entity) && e.b() == g.unitNode(unit));
    }

    private List<Map<String, Object>> summaries(UUID id, String layer) {
        return jdbc.sql(
                        "SELECT level, ordinal, units, start_offset, end_offset, text FROM comorag_summary WHERE document_id = ? AND layer = ? "
                                + "ORDER BY level, ordinal")
                .params(id, layer)
                .query()
                .listOfRows();
    }

    private static List<Integer> ints(Object sqlArray) {
        try {
            return List.of((Integer[]) ((java.sql.Array) sqlArray).getArray());
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
