package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Getting one JSON object out of what models actually write, and binding it. */
class StructuredOutputTest {

    record Answer(@NotBlank String answer, @NotEmpty List<String> citedNodes) {}

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
        assertThat(StructuredOutput.extractJson("Here:\n```\n{\"a\": {\"b\": 2}}\n```\nDone."))
                .isEqualTo("{\"a\": {\"b\": 2}}");
    }

    @Test
    void reasoningBlocksAreDroppedEvenWhenTheyContainJson() {
        String reply = "<think>Maybe {\"a\": 0}? No, the passage says 1.</think>\n{\"a\": 1}";

        assertThat(StructuredOutput.extractJson(reply)).isEqualTo("{\"a\": 1}");
        assertThat(StructuredOutput.extractJson("<reasoning>{x}</reasoning>```json\n{\"a\": 2}\n```"))
                .isEqualTo("{\"a\": 2}");
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
        assertThat(StructuredOutput.extractJson("Using {curly} notation: {\"a\": 1}"))
                .isEqualTo("{\"a\": 1}");
        assertThat(StructuredOutput.extractJson("{\"quote\": \"he said \\\"{no}\\\"\", \"n\": {\"m\": 1}} trailing"))
                .isEqualTo("{\"quote\": \"he said \\\"{no}\\\"\", \"n\": {\"m\": 1}}");
    }

    @Test
    void textWithoutJsonIsReturnedForTheParserToReject() {
        assertThat(StructuredOutput.extractJson("  I do not know.  ")).isEqualTo("I do not know.");
    }

    @Test
    void parseBindsLenientlyAndValidates() {
        Answer answer = output.parse(
                "Answer:\n```json\n{\"answer\": \"Magwitch\", \"citedNodes\": [\"n7\"], \"extra\": true}\n```",
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

        assertThat(schema)
                .contains("\"answer\"")
                .contains("\"citedNodes\"")
                .contains("\"additionalProperties\" : false")
                .contains("\"required\"");
        assertThat(StructuredOutput.schemaOf(Answer.class)).isSameAs(schema);
    }

    record Page(
            @jakarta.validation.constraints.NotNull @jakarta.validation.constraints.Positive
            Integer doc,

            @jakarta.validation.constraints.PositiveOrZero Integer page) {}

    enum Kind {
        ENTITY,
        EVENT
    }

    record Node(String id, Kind type) {}

    record Plan(
            @NotEmpty List<String> needs,
            @jakarta.validation.constraints.Size(max = 2) List<String> queries,
            List<@jakarta.validation.Valid Page> pages,
            List<Node> nodes) {}

    @Test
    void anInvalidListItemIsDroppedAndReportedWhileTheRestIsKept() {
        var parsed = output.read("""
                {"needs": ["who"], "queries": ["a"],
                 "pages": [{"doc": 0, "page": 1}, {"doc": 1, "page": 2}, {"doc": 2, "page": -1}, {"doc": 1, "page": 4}]}""", Plan.class);

        assertThat(parsed.value().pages()).containsExactly(new Page(1, 2), new Page(1, 4));
        assertThat(parsed.dropped())
                .extracting(StructuredOutput.Dropped::path)
                .containsExactlyInAnyOrder("pages[0]", "pages[2]");
        assertThat(parsed.dropped())
                .extracting(StructuredOutput.Dropped::reason)
                .anySatisfy(r -> assertThat(r).contains("pages[0].doc").contains("greater than 0"));
    }

    @Test
    void anItemOfTheWrongTypeOrAnUnknownEnumValueIsDroppedToo() {
        var parsed = output.read("""
                {"needs": ["x"], "pages": [{"doc": "first", "page": 1}, {"doc": 3, "page": 1}],
                 "nodes": [{"id": "n1", "type": "ENTITY"}, {"id": "n2", "type": "PERSON"}]}""", Plan.class);

        assertThat(parsed.value().pages()).containsExactly(new Page(3, 1));
        assertThat(parsed.value().nodes()).containsExactly(new Node("n1", Kind.ENTITY));
        assertThat(parsed.dropped())
                .extracting(StructuredOutput.Dropped::path)
                .containsExactlyInAnyOrder("pages[0]", "nodes[1]");
    }

    @Test
    void aListLongerThanItsLimitIsCutRatherThanRefused() {
        var parsed = output.read("{\"needs\": [\"x\"], \"queries\": [\"a\", \"b\", \"c\", \"d\"]}", Plan.class);

        assertThat(parsed.value().queries()).containsExactly("a", "b");
        assertThat(parsed.dropped()).extracting(StructuredOutput.Dropped::path).containsExactly("queries[2:]");
    }

    @Test
    void aTopLevelViolationIsStillRefusedForRepair() {
        assertThatThrownBy(() -> output.read("{\"needs\": [], \"pages\": [{\"doc\": 0}]}", Plan.class))
                .isInstanceOf(StructuredOutput.InvalidReply.class)
                .hasMessageContaining("needs");
    }

    @Test
    void constraintsTheCodeChecksAreInTheSchemaSentToTheModel() {
        String schema = StructuredOutput.schemaOf(Plan.class);

        assertThat(schema.replaceAll("\\s", ""))
                .contains("\"maxItems\":2")
                .contains("\"minimum\":1")
                .contains("\"minimum\":0")
                .contains("\"enum\":[\"ENTITY\",\"EVENT\"]");
    }

    @Test
    void plainTextIsRecognisedAsSuch() {
        assertThat(StructuredOutput.containsJson("<think>hmm {\"a\":1}</think>Abel Magwitch."))
                .isFalse();
        assertThat(StructuredOutput.plainText("<think>hmm</think> Abel Magwitch. "))
                .isEqualTo("Abel Magwitch.");
        assertThat(StructuredOutput.containsJson("Sure: {\"answer\": \"x\"}")).isTrue();
        assertThat(StructuredOutput.containsJson("{\"answer\": \"Magw"))
                .as("broken JSON is not prose")
                .isTrue();
        assertThat(StructuredOutput.containsJson("Using {curly} braces, the answer is Magwitch."))
                .isFalse();
    }

    // ------------------------------------------------------------------ replies cut at the output limit

    record Facts(@NotEmpty List<@jakarta.validation.Valid Fact> facts, String note) {}

    record Fact(@NotBlank String text, @NotBlank String quote) {}

    @Test
    void aCutListKeepsItsCompleteItemsAndLosesTheOneItWasCutIn() {
        String cut = "{\"facts\": [{\"text\": \"Pip is an orphan\", \"quote\": \"my father's family name\"},"
                + " {\"text\": \"Joe is a smith\", \"quote\": \"Joe Gargery\"}, {\"text\": \"Magwitch sen";

        Facts facts = output.readCut(cut, Facts.class).value();

        assertThat(facts.facts()).extracting(Fact::text).containsExactly("Pip is an orphan", "Joe is a smith");
    }

    @Test
    void aCutItemMissingARequiredFieldIsLeftOutRatherThanKeptHalf() {
        // cut after the text of the second fact: that fact lacks its quote, so only the first one is complete
        String cut = "```json\n{\"facts\": [{\"text\": \"a\", \"quote\": \"b\"}, {\"text\": \"c\", \"quo";

        assertThat(output.readCut(cut, Facts.class).value().facts())
                .extracting(Fact::text)
                .containsExactly("a");
    }

    @Test
    void aReplyCutInsideItsOnlyRequiredFieldHasNothingToKeep() {
        assertThatThrownBy(() -> output.readCut("{\"answer\": \"Magw", Answer.class))
                .isInstanceOf(StructuredOutput.InvalidReply.class);
        assertThatThrownBy(() -> output.readCut("I think the answer is", Answer.class))
                .isInstanceOf(StructuredOutput.InvalidReply.class);
    }

    @Test
    void cutPointsCloseWhatIsOpenAndIgnoreBracketsInsideStrings() {
        assertThat(StructuredOutput.cutPoints("{\"a\": [1, \"x],{\", {\"b\": 2}, 3"))
                .containsExactly(
                        "{\"a\": [1]}",
                        "{\"a\": [1, \"x],{\"]}",
                        "{\"a\": [1, \"x],{\", {\"b\": 2}]}",
                        "{\"a\": [1, \"x],{\", {\"b\": 2}]}");
    }
}
