package io.lorekeeper.question;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import io.lorekeeper.support.SharedData;
import tools.jackson.databind.JsonNode;

/**
 * The README's walkthrough, end to end: a whole novel (about 250,000 tokens) uploaded as a file,
 * ingested, and asked who Pip's benefactor is with the extractive strategy.
 */
@IntegrationTest
class GreatExpectationsTest {

    @Autowired
    Api api;

    @Test
    void findsPipsBenefactorInTheWholeNovel() throws Exception {
        Path novelFile = SharedData.require("novels/great_expectations_pg1400.txt");
        Api.Response uploaded = api.upload(
                "/v1/documents/files",
                "great_expectations.txt",
                "text/plain",
                Files.readAllBytes(novelFile),
                Map.of("title", "Great Expectations"));
        UUID id = UUID.fromString(uploaded.json().get("id").asString());
        // about 20 s of embedding on an idle machine; a generous limit, so a busy one is slower, not red
        JsonNode document = api.awaitDocument(id, "READY", Duration.ofMinutes(15));
        assertThat(document.get("tokenCount").asInt()).isGreaterThan(200_000);

        JsonNode answer = api.ask(Map.of(
                "documentIds", List.of(id), "question", "Who is Pip's secret benefactor?", "strategy", "extractive"));

        assertThat(answer.get("mode").asString()).isEqualTo("extractive");
        assertThat(answer.get("answer").asString()).contains("Magwitch");
        String novel = Files.readString(novelFile).replace("\r\n", "\n").replace("\uFEFF", "");
        assertThat(answer.get("citations"))
                .as("an answer from the novel cites it")
                .isNotEmpty();
        for (JsonNode citation : answer.get("citations")) {
            assertThat(novel.substring(
                            citation.get("start").asInt(), citation.get("end").asInt()))
                    .isEqualTo(citation.get("quote").asString());
        }
    }
}
