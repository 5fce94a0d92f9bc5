package io.lorekeeper.cosmir;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.Documents;
import io.lorekeeper.llm.Budget;
import io.lorekeeper.llm.CallScope;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.strategy.Cancellation;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.Strategies;
import io.lorekeeper.strategy.Trace;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.support.SharedData;
import io.lorekeeper.text.SentenceSplitter;
import io.lorekeeper.text.Span;
import tools.jackson.databind.json.JsonMapper;

/**
 * COSMIR's PRUNE at the paper's settings on a whole novel: a worker that extracts densely (a fact for
 * every sentence of some length, with its first words as the quote) fills the 8,000-token gathered
 * facts from the first chunk, so the oldest are pruned from the second on. With a fixed bound of 30
 * short facts per chunk (about 1,000 tokens) the cap was reached only after about eight chunks, and
 * on a four-chunk novel PRUNE never ran.
 */
@LlmIntegrationTest
class CosmirNovelPruningTest {

    private static final Pattern FACT = Pattern.compile("(?m)^\\[(G\\d+)] ");

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    Strategies strategies;

    @Autowired
    LlmGateway gateway;

    @Autowired
    Documents documents;

    @Test
    void aDenseExtractionFillsTheGatheredFactsAndThePaperPruneRunsOnALongBook() throws Exception {
        String novel = Files.readString(SharedData.require("novels/great_expectations_pg1400.txt"))
                .replace("\r\n", "\n")
                .replace("\uFEFF", "");
        DocumentInfo document = storedText(novel);
        model.reset();
        model.on("cosmir/plan").reply(json(Map.of("questions", List.of("Who is Pip's benefactor?"))));
        model.on("cosmir/extract").reply(call -> {
            String chunk = between(call.user(), "<source>\n", "\n</source>");
            List<Map<String, String>> facts = new ArrayList<>();
            for (Span s : SentenceSplitter.split(chunk)) {
                String[] words = s.of(chunk).strip().split("\\s+");
                if (words.length >= 12) {
                    String quote = String.join(" ", List.of(words).subList(0, 10));
                    facts.add(Map.of("fact", "The text says: " + quote + ".", "quote", quote));
                }
            }
            return json(Map.of("facts", facts));
        });
        model.on("cosmir/infer").reply(json(Map.of("inferred", List.of())));
        model.on("cosmir/refine").reply(json(Map.of("questions", List.of("Who is Pip's benefactor?"))));
        model.on("cosmir/manage")
                .reply(call -> json(Map.of(
                        "answer",
                        "Magwitch",
                        "citedFacts",
                        FACT.matcher(call.user())
                                .results()
                                .map(m -> m.group(1))
                                .limit(1)
                                .toList(),
                        "confidence",
                        0.5)));
        List<Object> events = new ArrayList<>();
        Trace trace = events::add;
        QuestionContext context = new QuestionContext(
                UUID.randomUUID(),
                "Who is Pip's benefactor?",
                List.of(),
                QuestionOptions.none(),
                List.of(document),
                null,
                gateway.open(CallScope.document(document.tenantId(), document.id()), Budget.unlimited()),
                trace,
                Cancellation.NEVER);
        try {
            strategies.require("cosmir").answer(context);
        } finally {
            // the ingestion job still embedding the novel would outlive the test
            api.delete("/v1/documents/" + document.id());
        }

        CosmirEvent.Reading reading = events.stream()
                .filter(CosmirEvent.Reading.class::isInstance)
                .map(CosmirEvent.Reading.class::cast)
                .findFirst()
                .orElseThrow();
        assertThat(reading.chunkTokens()).isEqualTo(64_000);
        assertThat(reading.capTokens()).isEqualTo(8_000);
        assertThat(reading.chunks()).isEqualTo(4);
        List<CosmirEvent.Extract> extracts = events.stream()
                .filter(CosmirEvent.Extract.class::isInstance)
                .map(CosmirEvent.Extract.class::cast)
                .toList();
        assertThat(extracts).hasSize(4);
        CosmirEvent.Extract first = extracts.getFirst();
        assertThat(first.added().size())
                .as("far more than the 30 facts a chunk was once held to")
                .isGreaterThan(100);
        assertThat(first.overLimit())
                .as("the rest of the dense reply lies beyond the bound")
                .isPositive();
        assertThat(first.gatheredTokens())
                .isLessThanOrEqualTo(reading.extractTokens())
                .isGreaterThan(reading.extractTokens() - 100);
        for (CosmirEvent.Extract later : extracts.subList(1, extracts.size())) {
            assertThat(later.pruned())
                    .as("chunk %d prunes the oldest facts", later.chunk())
                    .isNotEmpty();
            assertThat(later.pruned().getFirst().chunk()).isLessThan(later.chunk());
            assertThat(later.gatheredTokens()).isLessThanOrEqualTo(8_000).isGreaterThan(7_000);
        }
    }

    private DocumentInfo storedText(String novel) throws InterruptedException {
        Api.Response posted = api.post(
                "/v1/documents",
                CosmirStrategyTest.retrievalOnly(Map.of("title", "Great Expectations", "text", novel)));
        assertThat(posted.status()).as(posted.body()).isIn(200, 202);
        UUID id = UUID.fromString(posted.json().get("id").asString());
        for (int i = 0; i < 600 && !segmented(api.get("/v1/documents/" + id).json()); i++) {
            Thread.sleep(200);
        }
        assertThat(documents.text(id)).isEqualTo(novel);
        return documents.find(CurrentTenant.DEFAULT, id).orElseThrow();
    }

    private static boolean segmented(tools.jackson.databind.JsonNode document) {
        for (tools.jackson.databind.JsonNode stage : document.path("stages")) {
            if (stage.path("name").asString().equals("segment")) {
                return stage.path("status").asString().equals("DONE");
            }
        }
        return false;
    }

    private static String between(String text, String from, String to) {
        int start = text.indexOf(from);
        return text.substring(start + from.length(), text.indexOf(to, start + from.length()));
    }

    private static String json(Object value) {
        return JsonMapper.builder().build().writeValueAsString(value);
    }
}
