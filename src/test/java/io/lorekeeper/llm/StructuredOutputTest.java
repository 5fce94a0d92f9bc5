package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;

/** Getting one JSON object out of what models actually write, and binding it. */
class StructuredOutputTest {

    record Answer(@NotBlank String answer, @NotEmpty List<String> citedNodes) {
    }

    private static final ValidatorFactory VALIDATION = Validation.buildDefaultValidatorFactory();
    private final StructuredOutput output = new StructuredOutput(VALIDATION.getValidator());

    @AfterAll
    static void close() {
        VALIDATION.close();
    }

    @Test
    void bareJsonIsKept() {
        assertThat(StructuredOutput.extractJson("{\"a\": 1}")).isEqualTo("{\"a\": 1}");
    }

    @Test
    void codeFencesAreStripped() {
        assertThat(StructuredOutput.extractJson("```json\n{\"a\": 1}\n```")).isEqualTo("{\"a\": 1}");
        assertThat(StructuredOutput.extractJson("Here:\n```\n{\"a\": {\"b\": 2}}\n```\nDone.")).isEqualTo("{\"a\": {\"b\": 2}}");
    }

    @Test
    void reasoningBlocksAreDroppedEvenWhenTheyContainJson() {
        String reply = "<think>Maybe {\"a\": 0}? No, the passage says 1.</think>\n{\"a\": 1}";

        assertThat(StructuredOutput.extractJson(reply)).isEqualTo("{\"a\": 1}");
        assertThat(StructuredOutput.extractJson("<reasoning>{x}</reasoning>```json\n{\"a\": 2}\n```")).isEqualTo("{\"a\": 2}");
    }

    @Test
    void reasoningWhoseOpeningTagWasInThePromptIsDroppedToo() {
        // e.g. DeepSeek-R1 distills behind Ollama: the chat template opens <think>, the model only closes it
        String reply = "The user wants {\"a\": 0} or so... actually 1.\n</think>\n\n{\"a\": 1}";

        assertThat(StructuredOutput.extractJson(reply)).isEqualTo("{\"a\": 1}");
    }

    @Test
    void proseAroundTheJsonIsIgnoredEvenWithBracesOfItsOwn() {
        assertThat(StructuredOutput.extractJson("Sure! {\"a\": \"x}y\"} Hope that helps {really}."))
                .isEqualTo("{\"a\": \"x}y\"}");
        assertThat(StructuredOutput.extractJson("Using {curly} notation: {\"a\": 1}")).isEqualTo("{\"a\": 1}");
        assertThat(StructuredOutput.extractJson("{\"quote\": \"he said \\\"{no}\\\"\", \"n\": {\"m\": 1}} trailing"))
                .isEqualTo("{\"quote\": \"he said \\\"{no}\\\"\", \"n\": {\"m\": 1}}");
    }

    @Test
    void textWithoutJsonIsReturnedForTheParserToReject() {
        assertThat(StructuredOutput.extractJson("  I do not know.  ")).isEqualTo("I do not know.");
    }

    @Test
    void parseBindsLenientlyAndValidates() {
        Answer answer = output.parse("Answer:\n```json\n{\"answer\": \"Magwitch\", \"citedNodes\": [\"n7\"], \"extra\": true}\n```",
                Answer.class);

        assertThat(answer).isEqualTo(new Answer("Magwitch", List.of("n7")));
    }

    @Test
    void violationsAreListedForTheRepairCall() {
        assertThatThrownBy(() -> output.parse("{\"answer\": \" \", \"citedNodes\": []}", Answer.class))
                .isInstanceOf(StructuredOutput.InvalidReply.class)
                .hasMessage("answer must not be blank; citedNodes must not be empty");
        assertThatThrownBy(() -> output.parse("no json here", Answer.class))
                .isInstanceOf(StructuredOutput.InvalidReply.class)
                .hasMessageStartingWith("the reply is not JSON matching the schema");
        assertThatThrownBy(() -> output.parse(null, Answer.class)).isInstanceOf(StructuredOutput.InvalidReply.class);
    }

    @Test
    void theSchemaIsStrictModeReady() {
        String schema = StructuredOutput.schemaOf(Answer.class);

        assertThat(schema).contains("\"answer\"").contains("\"citedNodes\"").contains("\"additionalProperties\" : false")
                .contains("\"required\"");
        assertThat(StructuredOutput.schemaOf(Answer.class)).isSameAs(schema);
    }
}
