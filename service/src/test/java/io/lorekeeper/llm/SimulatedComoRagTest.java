package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.prompt.Prompt;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The simulated model's ComoRAG rules: one cycle of the loop, answers quoting the first source passage. */
class SimulatedComoRagTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final SimulatedChatModels models = new SimulatedChatModels(Duration.ZERO);

    private JsonNode call(String template, String user) {
        return JSON.readTree(models.forProfile(null)
                .call(new Prompt(List.of(new SystemMessage("[task: " + template + "]\nrules"), new UserMessage(user))))
                .getResult()
                .getOutput()
                .getText());
    }

    @Test
    void theIndexBuildersExtractNamesAndSummariseWithFirstSentences() {
        JsonNode triples = call(
                "comorag/triples", "<passage>\nPip met Magwitch in the Marshes at dusk. Later he ran.\n</passage>");
        assertThat(triples.get("entities"))
                .extracting(JsonNode::asString)
                .containsExactly("Pip", "Magwitch", "Marshes");
        assertThat(triples.get("triples").get(0).get("subject").asString()).isEqualTo("Pip");
        assertThat(triples.get("triples").get(0).get("object").asString())
                .isEqualTo("Pip met Magwitch in the Marshes at dusk.");

        JsonNode summary = call(
                "comorag/episodic-summary",
                "<passage n=\"1\">\nJoe was kind. He forged iron.\n</passage>\n\n<passage n=\"2\">\nx\n</passage>");
        assertThat(summary.get("summary").asString()).isEqualTo("Joe was kind.");
    }

    @Test
    void oneProbeWhileFewerThanTwoProbesRanThenNone() {
        String first =
                "Question: Who paid?\n\nProbes already run:\n1. Who paid?\n\nWhat they turned up:\n(no findings yet)";
        assertThat(call("comorag/probe", first).get("probes"))
                .extracting(JsonNode::asString)
                .containsExactly("Background to: Who paid?");
        String second =
                "Question: Who paid?\n\nProbes already run:\n1. Who paid?\n2. Background to: Who paid?\n\nWhat they turned up:\n-";
        assertThat(call("comorag/probe", second).get("probes")).isEmpty();
    }

    @Test
    void tryAnswerFailsWithoutBackgroundAndAnswersWithItQuotingTheFirstSourcePassage() {
        String passages =
                "Source passages:\n<passage n=\"V1\">\nMagwitch was the benefactor. He came back.\n</passage>\n\n";
        JsonNode first = call(
                "comorag/answer",
                passages + "Background from earlier searches:\n<notes>\n(none yet)\n</notes>\n\nQuestion: Who?\n");
        assertThat(first.get("canAnswer").asBoolean()).isFalse();
        assertThat(first.get("answer").asString()).isEqualTo("Magwitch was the benefactor.");
        JsonNode later = call(
                "comorag/answer",
                passages + "Background from earlier searches:\n<notes>\nHe paid.\n</notes>\n\nQuestion: Who?\n");
        assertThat(later.get("canAnswer").asBoolean()).isTrue();
        assertThat(later.get("evidence").get(0).get("item").asString()).isEqualTo("V1");
        assertThat(later.get("evidence").get(0).get("quote").asString()).isEqualTo("Magwitch was the benefactor.");
        assertThat(call("comorag/answer", "Source passages:\n(nothing retrieved)\n\n<notes>\nx\n</notes>")
                        .get("canAnswer")
                        .asBoolean())
                .isFalse();

        JsonNode cue = call("comorag/encode", "Evidence:\n<summary n=\"P1\">\nEstella was cold. She left.\n</summary>");
        assertThat(cue.get("findings")).extracting(JsonNode::asString).containsExactly("Estella was cold.");
        JsonNode fused = call(
                "comorag/fuse", "Notes:\n<notes probe=\"p\" layer=\"veridical\">\n- Estella was cold.\n- x\n</notes>");
        assertThat(fused.get("history").asString()).isEqualTo("Estella was cold.");
    }
}
