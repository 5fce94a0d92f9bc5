package io.lorekeeper.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.lorekeeper.evaluator.Sentences;
import io.lorekeeper.evaluator.Tokens;
import io.lorekeeper.support.SharedData;

/**
 * The evaluator library does not depend on the service, so it carries its own copies of the sentence splitter (RULER
 * places needles at its boundaries) and the token count (context sizes, compaction): they must not drift from the
 * service's, or the harness would measure in other units than the service budgets in.
 */
class EvaluatorCopiesTest {

    @Test
    void theEvaluatorSplitsSentencesAndCountsTokensAsTheServiceDoes() throws Exception {
        String novel = Files.readString(SharedData.require("novels/great_expectations_pg1400.txt"));
        String text = novel.substring(0, Math.min(novel.length(), 200_000));
        List<Span> service = SentenceSplitter.split(text);
        List<Sentences.Span> evaluator = Sentences.split(text);
        assertThat(evaluator).extracting(s -> new Span(s.start(), s.end())).containsExactlyElementsOf(service);
        assertThat(Tokens.count(text)).isEqualTo(TokenCounter.count(text));
        assertThat(Tokens.count(text, 100, 5_000)).isEqualTo(TokenCounter.count(text, 100, 5_000));
    }
}
