package io.lorekeeper.memory;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.llm.ScriptedLlm;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.Api.Response;
import io.lorekeeper.support.LlmIntegrationTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The GAM memorizer at ingestion against a scripted model: one memo per page written in order with
 * the earlier memos as context, a header per page, and a conversation that grows by appended
 * sessions getting memos for its new pages only.
 */
@LlmIntegrationTest
class MemorizerTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    JdbcClient jdbc;

    @BeforeEach
    void resetModel() {
        model.reset();
    }

    /** Memos name the page's first line (its session line) and a tag, so each test finds its own calls. */
    private void scriptMemorizer(String tag) {
        model.on("gam/memo").reply(call -> memo(tag + " memo of " + ScriptedLlm.firstPageLine(call.user())));
        model.on("gam/page-header")
                .reply(call -> json("header", tag + " header of " + ScriptedLlm.firstPageLine(call.user())));
    }

    private static String memo(String text) {
        return json("memo", text);
    }

    private static String json(String field, String value) {
        return JSON.writeValueAsString(Map.of(field, value));
    }

    private static Map<String, Object> threeSessions(String tag) {
        return aConversation()
                .titled(tag)
                .session(
                        "9:00 am on 2 March, 2024",
                        "Ines",
                        "I start at the " + tag + " observatory on Monday.",
                        "Tomas",
                        "The one on the ridge above Arvello?")
                .session("6:15 pm on 9 March, 2024", "Ines", "First week done. The big telescope is called Margit.")
                .session(
                        "8:40 pm on 30 March, 2024",
                        "Tomas",
                        "Did you see the comet?",
                        "Ines",
                        "Yes, from the dome, at 3 am.")
                .build();
    }

    private static Map<String, Object> oneSession(String dateTime, String... speakerAndText) {
        List<Map<String, Object>> turns = new java.util.ArrayList<>();
        for (int i = 0; i < speakerAndText.length; i += 2) {
            turns.add(Map.of("speaker", speakerAndText[i], "text", speakerAndText[i + 1]));
        }
        return Map.of("sessions", List.of(Map.of("dateTime", dateTime, "turns", turns)));
    }

    @Test
    void writesMemosInOrderWithEarlierMemosAsContextAndMemorizesAppendedSessionsOnly() {
        String tag = "Kestrel";
        scriptMemorizer(tag);
        model.on("gam/memo")
                .delay(Duration.ofMillis(150)); // keeps the first ingestion running long enough to be refused below

        Response created = api.post("/v1/documents", threeSessions(tag));
        UUID id = UUID.fromString(created.json().get("id").asString());
        Response tooEarly =
                api.post("/v1/documents/" + id + "/sessions", oneSession("noon on 1 April, 2024", "Ines", "Hello?"));
        assertThat(tooEarly.status()).as(tooEarly.body()).isEqualTo(409);
        assertThat(tooEarly.json().get("detail").asString()).contains("being ingested");

        JsonNode ready = api.awaitDocument(id, "READY", Duration.ofMinutes(2));

        List<String> memos = memoTexts(id);
        assertThat(memos)
                .containsExactly(
                        tag + " memo of [Session 1, 9:00 am on 2 March, 2024]",
                        tag + " memo of [Session 2, 6:15 pm on 9 March, 2024]",
                        tag + " memo of [Session 3, 8:40 pm on 30 March, 2024]");
        List<ScriptedChatModel.Call> memoCalls = model.calls("gam/memo");
        assertThat(memoCalls).hasSize(3);
        assertThat(memoCalls.get(0).user())
                .contains(MemoryContext.NONE)
                .contains("Page 0:")
                .contains(
                        "<page>\n[Session 1, 9:00 am on 2 March, 2024]\nInes: I start at the Kestrel observatory on Monday.");
        assertThat(memoCalls.get(1).user())
                .contains("[page 0] " + memos.get(0))
                .doesNotContain(memos.get(1))
                .contains("Page 1:");
        assertThat(memoCalls.get(2).user()).contains("[page 0] " + memos.get(0)).contains("[page 1] " + memos.get(1));
        assertThat(memoCalls.get(0).system()).startsWith("[task: gam/memo]");
        assertThat(jdbc.sql("SELECT count(*) FROM memo WHERE document_id = ? AND embedding IS NOT NULL")
                        .param(id)
                        .query(Integer.class)
                        .single())
                .isEqualTo(3);
        assertThat(jdbc.sql("""
                SELECT count(*) FROM memo m JOIN page p ON p.document_id = m.document_id AND p.ordinal = m.page_ordinal
                WHERE m.document_id = ? AND m.start_offset = p.start_offset AND m.end_offset = p.end_offset""").param(id).query(Integer.class).single())
                .as("memos carry their page's span")
                .isEqualTo(3);

        assertThat(headers(id))
                .containsExactly(
                        tag + " header of [Session 1, 9:00 am on 2 March, 2024]",
                        tag + " header of [Session 2, 6:15 pm on 9 March, 2024]",
                        tag + " header of [Session 3, 8:40 pm on 30 March, 2024]");
        List<ScriptedChatModel.Call> headerCalls = model.calls("gam/page-header");
        assertThat(headerCalls).hasSize(3);
        assertThat(headerCalls.get(2).user())
                .as("a header is written from the memos before its page")
                .contains(memos.get(0))
                .contains(memos.get(1))
                .doesNotContain(memos.get(2));

        Map<String, JsonNode> stages = stages(ready);
        assertThat(ready.get("stages"))
                .extracting(s -> s.get("name").asString())
                .containsExactly(
                        "segment",
                        "embed",
                        "sentences",
                        "memos",
                        "page-headers",
                        "graph",
                        "veridical",
                        "triples",
                        "semantic",
                        "episodic");
        for (String stage : List.of("memos", "page-headers")) {
            assertThat(stages.get(stage).get("status").asString()).isEqualTo("DONE");
            assertThat(stages.get(stage).get("done").asInt())
                    .isEqualTo(stages.get(stage).get("total").asInt())
                    .isEqualTo(3);
        }

        // Append one session: only the new part is segmented, embedded and memorized.
        String textBefore = text(id);
        List<Map<String, Object>> chunksBefore = chunks(id);
        model.on("gam/memo").delay(Duration.ZERO);

        Response appended = api.post(
                "/v1/documents/" + id + "/sessions",
                oneSession(
                        "7:05 am on 6 April, 2024",
                        "Ines",
                        "Margit is closed for repairs until May.",
                        "Tomas",
                        "Bad timing!"));

        assertThat(appended.status()).as(appended.body()).isEqualTo(202);
        assertThat(appended.header("Location")).isEqualTo("/v1/documents/" + id);
        JsonNode session = appended.json().get("sessions").get(0);
        assertThat(session.get("id").asString()).isEqualTo("4");
        assertThat(session.get("number").asInt()).isEqualTo(4);
        assertThat(session.get("turnIds")).extracting(JsonNode::asString).containsExactly("D4:1", "D4:2");
        JsonNode grown = api.awaitDocument(id, "READY", Duration.ofMinutes(2));

        String textAfter = text(id);
        assertThat(textAfter)
                .as("the cached text is not served after an append")
                .isEqualTo(textBefore + "\n\n[Session 4, 7:05 am on 6 April, 2024]\n"
                        + "Ines: Margit is closed for repairs until May.\nTomas: Bad timing!");
        assertThat(grown.get("charCount").asInt()).isEqualTo(textAfter.length());
        assertThat(session.get("start").asInt()).isEqualTo(textBefore.length() + 2);
        assertThat(session.get("end").asInt()).isEqualTo(textAfter.length());
        Map<String, Object> turn = jdbc.sql("""
                SELECT start_offset, end_offset, session_id, session_index, turn_index FROM conversation_turn
                WHERE document_id = ? AND turn_id = 'D4:2'""").param(id).query().singleRow();
        assertThat(textAfter.substring((Integer) turn.get("start_offset"), (Integer) turn.get("end_offset")))
                .isEqualTo("Tomas: Bad timing!");
        assertThat(turn)
                .containsEntry("session_id", "4")
                .containsEntry("session_index", 3)
                .containsEntry("turn_index", 1);

        List<Map<String, Object>> chunksAfter = chunks(id);
        assertThat(chunksAfter)
                .as("earlier chunks keep their ids, spans and embeddings")
                .startsWith(chunksBefore.toArray(Map[]::new));
        assertThat(chunksAfter.size()).isGreaterThan(chunksBefore.size());
        assertThat(chunksAfter.subList(chunksBefore.size(), chunksAfter.size()))
                .allSatisfy(c -> assertThat(c.get("embedding")).isNotNull())
                .allSatisfy(c -> assertThat((Integer) c.get("page_ordinal")).isEqualTo(3))
                .allSatisfy(
                        c -> assertThat((Integer) c.get("start_offset")).isGreaterThanOrEqualTo(textBefore.length()));
        assertThat(chunksAfter)
                .extracting(c -> c.get("ordinal"))
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, chunksAfter.size())
                        .boxed()
                        .toList());
        assertThat(grown.get("chunkCount").asInt()).isEqualTo(chunksAfter.size());

        assertThat(model.calls("gam/memo")).as("exactly one more memo call").hasSize(4);
        String fourth = model.calls("gam/memo").get(3).user();
        assertThat(fourth)
                .contains(memos.get(0))
                .contains(memos.get(1))
                .contains(memos.get(2))
                .contains("Page 3:")
                .contains("<page>\n[Session 4, 7:05 am on 6 April, 2024]\nInes: Margit is closed");
        assertThat(memoTexts(id)).hasSize(4).startsWith(memos.toArray(String[]::new));
        assertThat(model.calls("gam/page-header")).hasSize(4);
        assertThat(headers(id)).hasSize(4).last().isEqualTo(tag + " header of [Session 4, 7:05 am on 6 April, 2024]");
        assertThat(jdbc.sql("SELECT session_id FROM page WHERE document_id = ? AND ordinal = 3")
                        .param(id)
                        .query(String.class)
                        .single())
                .isEqualTo("4");
        Map<String, JsonNode> grownStages = stages(grown);
        assertThat(grownStages.get("memos").get("status").asString()).isEqualTo("DONE");
        assertThat(grownStages.get("memos").get("done").asInt()).isEqualTo(4);
        assertThat(grownStages.get("memos").get("total").asInt()).isEqualTo(4);
        assertThat(grownStages.get("embed").get("done").asInt()).isEqualTo(chunksAfter.size());
    }

    @Test
    void aFailedMemoCallLeavesTheDocumentReadyAndReindexResumesTheMemosWithoutRedoingFinishedOnes() {
        String tag = "Plover";
        model.on("gam/memo")
                .once(memo(tag + " first memo"))
                .failOnce(new IllegalStateException("the memorizer endpoint is unplugged"))
                .reply(call -> memo(tag + " memo of " + ScriptedLlm.firstPageLine(call.user())));
        model.on("gam/page-header").reply(call -> json("header", tag + " header"));

        UUID id = UUID.fromString(
                api.post("/v1/documents", threeSessions(tag)).json().get("id").asString());
        JsonNode ready = api.awaitDocument(id, "READY", Duration.ofMinutes(2));

        assertThat(ready.get("failureReason"))
                .as("an enrichment failure never fails the document")
                .isNull();
        Map<String, JsonNode> stages = stages(ready);
        assertThat(stages.get("embed").get("status").asString()).isEqualTo("DONE");
        assertThat(stages.get("embed").get("kind").asString()).isEqualTo("retrieval");
        JsonNode memos = stages.get("memos");
        assertThat(memos.get("kind").asString()).isEqualTo("enrichment");
        assertThat(memos.get("status").asString()).isEqualTo("FAILED");
        assertThat(memos.get("message").asString())
                .contains("the memorizer endpoint is unplugged")
                .contains("attempt 1 of 5");
        assertThat(memos.get("retryAt")).as("a retry is scheduled").isNotNull();
        assertThat(memos.get("attempts").asInt()).isEqualTo(1);
        assertThat(memos.get("done").asInt()).isEqualTo(1);
        assertThat(memos.get("total").asInt()).isEqualTo(3);
        assertThat(stages.get("page-headers").get("status").asString())
                .as("other memories are built regardless")
                .isEqualTo("DONE");
        assertThat(memoTexts(id)).containsExactly(tag + " first memo");
        assertThat(headers(id)).containsOnly(tag + " header").hasSize(3);

        // reindex without stages: failed memories are tried again now, resuming from what they stored
        assertThat(api.post("/v1/documents/" + id + "/reindex", Map.of()).status())
                .isEqualTo(202);
        JsonNode rebuilt = api.awaitStage(id, "memos", "DONE", Duration.ofMinutes(2));

        assertThat(rebuilt.get("status").asString()).isEqualTo("READY");
        List<ScriptedChatModel.Call> memoCalls = model.calls("gam/memo");
        assertThat(memoCalls)
                .as("page 0 once, page 1 failed then retried, page 2 once")
                .hasSize(4);
        assertThat(memoCalls.get(2).user()).contains("Page 1:").contains("[page 0] " + tag + " first memo");
        assertThat(memoTexts(id))
                .containsExactly(
                        tag + " first memo",
                        tag + " memo of [Session 2, 6:15 pm on 9 March, 2024]",
                        tag + " memo of [Session 3, 8:40 pm on 30 March, 2024]");
        assertThat(stages(rebuilt).get("memos").get("done").asInt()).isEqualTo(3);
        assertThat(stages(rebuilt).get("memos").get("retryAt")).isNull();
        assertThat(model.calls("gam/page-header"))
                .as("a memory that was done is not rebuilt")
                .hasSize(3);
    }

    @Test
    void aPageWhoseReplyStaysUnusableIsLeftAsACountedGapAndAReindexWithoutStagesFillsOnlyThatGap() {
        String tag = "Avocet";
        java.util.concurrent.atomic.AtomicBoolean broken = new java.util.concurrent.atomic.AtomicBoolean(true);
        model.on("gam/memo").reply(call -> {
            String page = firstUser(call);
            if (broken.get() && page.contains("Page 1:")) {
                return "Sorry, I would rather tell you about this page in my own words."; // and again on repair
            }
            return memo(tag + " memo of " + ScriptedLlm.firstPageLine(page));
        });
        model.on("gam/page-header").reply(call -> json("header", tag + " header"));

        UUID id = UUID.fromString(
                api.post("/v1/documents", threeSessions(tag)).json().get("id").asString());
        JsonNode ready = api.awaitDocument(id, "READY", Duration.ofMinutes(2));

        JsonNode memos = stages(ready).get("memos");
        assertThat(memos.get("status").asString())
                .as("an unusable reply for one page does not fail the stage: " + memos)
                .isEqualTo("DONE");
        assertThat(memos.get("failed").asInt()).isEqualTo(1);
        assertThat(memos.get("failures")).hasSize(1);
        assertThat(memos.get("failures").get(0).asString())
                .startsWith("page 1: ")
                .contains("did not match its schema after one repair");
        assertThat(memos.get("message").asString())
                .contains("1 item was left without output")
                .contains("reindex");
        assertThat(memos.get("done").asInt()).isEqualTo(2);
        assertThat(memos.get("total").asInt()).isEqualTo(3);
        assertThat(memoPages(id)).as("the other pages have their memos").containsExactly(0, 2);
        assertThat(model.calls("gam/memo")).hasSize(3);
        assertThat(model.calls("gam/memo#repair"))
                .as("the gap was asked once and repaired once, not tried again within the run")
                .hasSize(1)
                .allSatisfy(c -> assertThat(firstUser(c)).contains("Page 1:"));
        assertThat(model.calls("gam/memo").get(2).user())
                .as("the page after the gap is memorized with the memos there are")
                .contains("Page 2:")
                .contains("[page 0] " + tag + " memo of [Session 1");
        JsonNode headers = stages(ready).get("page-headers");
        assertThat(headers.get("status").asString()).isEqualTo("DONE");
        assertThat(headers.get("failed")).as("no gaps, no count").isNull();
        int headerCalls = model.calls("gam/page-header").size();

        // a reindex without stages runs the stage again for its gaps only
        broken.set(false);
        assertThat(api.post("/v1/documents/" + id + "/reindex", Map.of()).status())
                .isEqualTo(202);
        JsonNode filled = awaitGapsFilled(id, "memos");

        assertThat(model.calls("gam/memo"))
                .as("one more call, for the page without a memo")
                .hasSize(4);
        assertThat(model.calls("gam/memo").get(3).user())
                .contains("Page 1:")
                .contains("[page 0] " + tag + " memo of [Session 1");
        assertThat(memoPages(id)).containsExactly(0, 1, 2);
        assertThat(memoTexts(id).get(1)).isEqualTo(tag + " memo of [Session 2, 6:15 pm on 9 March, 2024]");
        JsonNode after = stages(filled).get("memos");
        assertThat(after.get("done").asInt()).isEqualTo(3);
        assertThat(after.get("failures")).isNull();
        assertThat(after.get("message")).isNull();
        assertThat(model.calls("gam/page-header"))
                .as("a stage without gaps is not run again")
                .hasSize(headerCalls);
    }

    /** Waits until the stage has run again and is DONE with no gaps left. */
    private JsonNode awaitGapsFilled(UUID id, String stage) {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            JsonNode doc = api.get("/v1/documents/" + id).json();
            JsonNode s = stages(doc).get(stage);
            if (s.get("status").asString().equals("DONE") && s.get("failed") == null) {
                return doc;
            }
            assertThat(System.nanoTime())
                    .as("gaps of " + stage + " not filled: " + s)
                    .isLessThan(deadline);
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** The page a call is about: its first user message (a repair call's last one is the repair request). */
    private static String firstUser(ScriptedChatModel.Call call) {
        return call.messages().stream()
                .filter(m -> m.getMessageType() == org.springframework.ai.chat.messages.MessageType.USER)
                .findFirst()
                .orElseThrow()
                .getText();
    }

    private List<Integer> memoPages(UUID id) {
        return jdbc.sql("SELECT page_ordinal FROM memo WHERE document_id = ? ORDER BY page_ordinal")
                .param(id)
                .query(Integer.class)
                .list();
    }

    @Test
    void retrievalOnlyDocumentsGetNoMemosAndSaySo() {
        Map<String, Object> body = new HashMap<>(threeSessions("Curlew"));
        body.put("profile", "retrieval-only");

        JsonNode ready = api.awaitDocument(api.ingest(body), "READY", Duration.ofSeconds(5));

        for (String stage : List.of("memos", "page-headers")) {
            assertThat(stages(ready).get(stage).get("status").asString()).isEqualTo("SKIPPED");
            assertThat(stages(ready).get(stage).get("message").asString()).contains("retrieval-only");
        }
        assertThat(model.calls("gam/memo")).isEmpty();
        assertThat(memoTexts(UUID.fromString(ready.get("id").asString()))).isEmpty();
    }

    private List<String> memoTexts(UUID id) {
        return jdbc.sql("SELECT text FROM memo WHERE document_id = ? ORDER BY page_ordinal")
                .param(id)
                .query(String.class)
                .list();
    }

    private List<String> headers(UUID id) {
        return jdbc.sql("SELECT header FROM page WHERE document_id = ? ORDER BY ordinal")
                .param(id)
                .query(String.class)
                .list();
    }

    private List<Map<String, Object>> chunks(UUID id) {
        return jdbc.sql("""
                SELECT id, ordinal, page_ordinal, start_offset, end_offset, embedding::text AS embedding
                FROM chunk WHERE document_id = ? ORDER BY ordinal""").param(id).query().listOfRows();
    }

    private String text(UUID id) {
        return api.get("/v1/documents/" + id + "/text").json().get("text").asString();
    }

    private static Map<String, JsonNode> stages(JsonNode document) {
        Map<String, JsonNode> byName = new HashMap<>();
        document.get("stages").forEach(stage -> byName.put(stage.get("name").asString(), stage));
        return byName;
    }
}
