package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Replies at the edges of what structured output reads: empty, not an object, items dropped in order, cut points. */
class StructuredOutputEdgesTest {

    private static final ValidatorFactory VALIDATION = Validation.buildDefaultValidatorFactory();
    private final StructuredOutput output = new StructuredOutput(VALIDATION.getValidator());

    @AfterAll
    static void close() {
        VALIDATION.close();
    }

    record Item(@Positive int n) {}

    record Items(
            @NotEmpty List<@Valid Item> items,
            @Size(max = 2) List<String> tags) {}

    record Group(@NotBlank String name, List<@Valid Item> members) {}

    record Groups(List<@Valid Group> groups) {}

    @Test
    void anEmptyReplyOrOneThatIsNotAnObjectIsRefusedSayingWhich() {
        assertThatThrownBy(() -> output.read(null, Items.class))
                .isInstanceOf(StructuredOutput.InvalidReply.class)
                .hasMessageContaining("the reply is empty");
        assertThatThrownBy(() -> output.read("   ", Items.class)).hasMessageContaining("the reply is empty");
        assertThatThrownBy(() -> output.read("[1, 2]", Items.class))
                .hasMessageContaining("the reply is not a JSON object");
        assertThatThrownBy(() -> output.read("\"just a string\"", Items.class))
                .hasMessageContaining("the reply is not a JSON object");
        assertThatThrownBy(() -> output.read("{\"items\": [1,}", Items.class))
                .hasMessageContaining("the reply is not JSON matching the schema");
    }

    @Test
    void everyInvalidItemIsDroppedAndTheValidOnesKeepTheirOrder() {
        var parsed = output.read(
                "{\"items\": [{\"n\": 0}, {\"n\": 1}, {\"n\": -1}, {\"n\": 2}, {\"n\": 0}, {\"n\": 3}, {\"n\": -5}]}",
                Items.class);

        assertThat(parsed.value().items()).extracting(Item::n).containsExactly(1, 2, 3);
        assertThat(parsed.dropped())
                .extracting(StructuredOutput.Dropped::path)
                .containsExactlyInAnyOrder("items[0]", "items[2]", "items[4]", "items[6]");
    }

    @Test
    void anInvalidItemOfANestedListDropsOnlyThatItem() {
        var parsed = output.read(
                "{\"groups\": [{\"name\": \"a\", \"members\": [{\"n\": 1}, {\"n\": 0}]},"
                        + " {\"name\": \"b\", \"members\": [{\"n\": 0}, {\"n\": 2}, {\"n\": 3}]}]}",
                Groups.class);

        assertThat(parsed.value().groups()).extracting(Group::name).containsExactly("a", "b");
        assertThat(parsed.value().groups().get(0).members()).extracting(Item::n).containsExactly(1);
        assertThat(parsed.value().groups().get(1).members()).extracting(Item::n).containsExactly(2, 3);
        assertThat(parsed.dropped())
                .extracting(StructuredOutput.Dropped::path)
                .containsExactlyInAnyOrder("groups[0].members[1]", "groups[1].members[0]");

        var groupDropped = output.read(
                "{\"groups\": [{\"name\": \"\", \"members\": [{\"n\": 0}]}, {\"name\": \"b\", \"members\": []}]}",
                Groups.class);
        assertThat(groupDropped.value().groups()).extracting(Group::name).containsExactly("b");
    }

    @Test
    void aListAtItsLimitIsKeptWholeAndOneItemOverIsCut() {
        assertThat(output.read("{\"items\": [{\"n\": 1}], \"tags\": [\"a\", \"b\"]}", Items.class)
                        .dropped())
                .isEmpty();
        var cut = output.read("{\"items\": [{\"n\": 1}], \"tags\": [\"a\", \"b\", \"c\"]}", Items.class);
        assertThat(cut.value().tags()).containsExactly("a", "b");
        assertThat(cut.dropped()).extracting(StructuredOutput.Dropped::path).containsExactly("tags[2:]");
    }

    @Test
    void aWrongTypeOutsideEveryListIsRefused() {
        assertThatThrownBy(() -> output.read("{\"items\": \"none\"}", Items.class))
                .isInstanceOf(StructuredOutput.InvalidReply.class)
                .hasMessageContaining("the reply is not JSON matching the schema");
    }

    @Test
    void cutPointsStopAtAnUnmatchedCloseAndAtTheEndOfTheObject() {
        assertThat(StructuredOutput.cutPoints("{\"a\": 1}, {\"b\": 2}"))
                .as("the first whole object ends the cut points")
                .containsExactly("{\"a\": 1}");
        assertThat(StructuredOutput.cutPoints("]{\"a\": 1}")).isEmpty();
        assertThat(StructuredOutput.cutPoints("{\"a\": \"say \\\"x, y\\\"\", \"b\": [true, {\"c\": [1, 2"))
                .containsExactly(
                        "{\"a\": \"say \\\"x, y\\\"\"}",
                        "{\"a\": \"say \\\"x, y\\\"\", \"b\": [true]}",
                        "{\"a\": \"say \\\"x, y\\\"\", \"b\": [true, {\"c\": [1]}]}");
    }

    @Test
    void theJsonIsTheFirstBalancedObjectAfterReasoningAndInsideAFence() {
        assertThat(StructuredOutput.extractJson("x {not json} then {\"a\": {\"b\": \"}\"}} and {\"c\": 1}"))
                .isEqualTo("{\"a\": {\"b\": \"}\"}}");
        assertThat(StructuredOutput.extractJson("thinking aloud</think> {\"a\": 1}"))
                .isEqualTo("{\"a\": 1}");
        assertThat(StructuredOutput.extractJson("Here:\n```json\n{\"a\": 2}\n```\nDone {x}"))
                .isEqualTo("{\"a\": 2}");
        assertThat(StructuredOutput.extractJson("broken {\"a\": 1 and more}")).isEqualTo("{\"a\": 1 and more}");
        assertThat(StructuredOutput.extractJson("} backwards {")).isEqualTo("} backwards {");
        assertThat(StructuredOutput.extractJson("{\"s\": \"a \\\"quoted\\\" }\"}"))
                .isEqualTo("{\"s\": \"a \\\"quoted\\\" }\"}");
        assertThat(StructuredOutput.plainText("draft</think>  The answer.")).isEqualTo("The answer.");
        assertThat(StructuredOutput.plainText(null)).isEmpty();
        assertThat(StructuredOutput.containsJson("{\"a\": 1}")).isTrue();
        assertThat(StructuredOutput.containsJson("The set {1, 2} has two members."))
                .isFalse();
    }

    record Fresh(String only) {}

    @Test
    void theSchemaNamesTheTypesFields() {
        assertThat(StructuredOutput.schemaOf(Fresh.class)).contains("\"only\"");
    }

    @Test
    void aParseErrorIsReportedOnItsFirstLine() {
        assertThatThrownBy(() -> output.read("{\"items\": [1,}", Items.class))
                .hasMessageMatching("the reply is not JSON matching the schema: \\S.*")
                .hasMessageNotContaining("\n");
    }

    @Test
    void invalidItemsPastTheNinthAreRemovedFromTheEndFirst() {
        StringBuilder items = new StringBuilder();
        for (int i = 0; i < 12; i++) {
            items.append(i == 0 ? "" : ", ")
                    .append("{\"n\": ")
                    .append(i == 9 || i == 11 ? 0 : i + 1)
                    .append('}');
        }
        var parsed = output.read("{\"items\": [" + items + "]}", Items.class);
        assertThat(parsed.value().items()).extracting(Item::n).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 11);
        assertThat(parsed.dropped())
                .extracting(StructuredOutput.Dropped::path)
                .containsExactlyInAnyOrder("items[9]", "items[11]");
    }

    @Test
    void atMostSixtyFourItemsOfTheWrongTypeAreDroppedOneByOne() {
        assertThat(output.read(wrongTypes(63), Items.class).value().items())
                .extracting(Item::n)
                .containsExactly(7);
        assertThatThrownBy(() -> output.read(wrongTypes(64), Items.class))
                .isInstanceOf(StructuredOutput.InvalidReply.class)
                .hasMessageContaining("too many invalid items");
    }

    private static String wrongTypes(int count) {
        StringBuilder items = new StringBuilder();
        for (int i = 0; i < count; i++) {
            items.append("{\"n\": \"x\"}, ");
        }
        return "{\"items\": [" + items + "{\"n\": 7}]}";
    }

    @Test
    void theJsonAtTheVeryStartOrAfterReasoningWithBracesOfItsOwnIsTheOneTaken() {
        assertThat(StructuredOutput.extractJson("{\"a\": 1} and {\"b\": 2}")).isEqualTo("{\"a\": 1}");
        assertThat(StructuredOutput.extractJson("{not json} tail")).isEqualTo("{not json}");
        assertThat(StructuredOutput.extractJson("draft {\"x\": 0}</think> {\"a\": 1}"))
                .isEqualTo("{\"a\": 1}");
        assertThat(StructuredOutput.extractJson("{\"s\": \"\\\" }\", \"t\": 1} and then }"))
                .as("an escaped quote does not end the string its brace is in")
                .isEqualTo("{\"s\": \"\\\" }\", \"t\": 1}");
        assertThat(StructuredOutput.containsJson("{}")).isTrue();
        assertThat(StructuredOutput.extractJson("For example {\"x\": 1}, but:\n```json\n{\"a\": 2}\n```"))
                .as("a fenced block wins over JSON in the prose before it")
                .isEqualTo("{\"a\": 2}");
    }

    @Test
    void aCutReplyIsReadFromItsLatestCompleteItemAndOnlyFromAnObject() {
        var parsed = output.readCut(
                "<think>plan</think>```json\n{\"items\": [{\"n\": 1}, {\"n\": 2}, {\"n\": 3", Items.class);
        assertThat(parsed.value().items()).extracting(Item::n).containsExactly(1, 2);
        assertThatThrownBy(() -> output.readCut("no object here", Items.class))
                .hasMessageContaining("the cut reply holds no JSON object");
    }

    @Test
    void aCutReplyFallsBackPastCutsThatDoNotBindForAtMostFortyParses() {
        // each `"tags": "x",` ends a cut that does not bind (a string where a list belongs, outside every list)
        java.util.function.IntFunction<String> reply =
                wrong -> "{\"items\": [{\"n\": 1}], " + "\"tags\": \"x\", ".repeat(wrong) + "\"tags\": [\"cut";

        assertThat(output.readCut("{\"items\": [{\"n\": 7, \"n\": 8", Items.class)
                        .value()
                        .items())
                .as("the first cut, inside the first item, is the only one")
                .extracting(Item::n)
                .containsExactly(7);
        assertThat(output.readCut(reply.apply(1), Items.class).value().items())
                .extracting(Item::n)
                .containsExactly(1);
        assertThat(output.readCut(reply.apply(39), Items.class).value().items())
                .extracting(Item::n)
                .containsExactly(1);
        assertThatThrownBy(() -> output.readCut(reply.apply(40), Items.class))
                .as("forty cuts tried, none bound")
                .isInstanceOf(StructuredOutput.InvalidReply.class)
                .hasMessageContaining("not JSON matching the schema");
    }
}
