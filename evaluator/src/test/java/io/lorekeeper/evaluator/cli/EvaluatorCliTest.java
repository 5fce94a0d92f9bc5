package io.lorekeeper.evaluator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The command line takes the former lorekeeper.eval.* names, with or without the prefix, in either form. */
class EvaluatorCliTest {

    @Test
    void takesTheFormerPropertyNamesAndTheShortOnes() {
        Map<String, String> options = EvaluatorCli.parse(new String[] {
            "--lorekeeper.eval.dataset=hotpotqa",
            "--path",
            "data/x.jsonl",
            "--strategies=extractive,rag",
            "--lorekeeper.eval.limit",
            "5",
            "--base-url=http://localhost:9999"
        });
        assertThat(options)
                .containsEntry("dataset", "hotpotqa")
                .containsEntry("path", "data/x.jsonl")
                .containsEntry("strategies", "extractive,rag")
                .containsEntry("limit", "5")
                .containsEntry("base-url", "http://localhost:9999")
                .containsEntry("concurrency", "4");
    }

    @Test
    void refusesUnknownOptionsAndTheJudge() {
        assertThatThrownBy(() -> EvaluatorCli.parse(new String[] {"--lorekeeper.eval.datset=locomo"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown option --datset");
        assertThatThrownBy(() -> EvaluatorCli.run(new String[] {"--judge", "--path", "x"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("POST /v1/evaluations");
    }

    @Test
    void readsDurationsAsTheServiceSettingsWereWritten() {
        assertThat(EvaluatorCli.duration("10m")).isEqualTo(Duration.ofMinutes(10));
        assertThat(EvaluatorCli.duration("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(EvaluatorCli.duration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(EvaluatorCli.duration("PT2H")).isEqualTo(Duration.ofHours(2));
    }
}
