package io.lorekeeper.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.lorekeeper.text.TokenCounter;

/** What a memo or header call sees of the memory so far, and of a page too long for one prompt. */
class MemoryContextTest {

    private static final List<MemorizerStore.Memo> MEMOS = IntStream.range(0, 6)
            .mapToObj(i -> new MemorizerStore.Memo(
                    i, "Memo number " + i + " says that " + "something happened again. ".repeat(10)))
            .toList();

    @Test
    void theFirstPageHasNoMemory() {
        assertThat(MemoryContext.before(MEMOS, 0, 3000)).isEqualTo(MemoryContext.NONE);
        assertThat(MemoryContext.before(List.of(), 4, 3000)).isEqualTo(MemoryContext.NONE);
    }

    @Test
    void showsEveryEarlierMemoOldestFirstWhenTheyFit() {
        String context = MemoryContext.before(MEMOS, 3, 3000);

        assertThat(context)
                .startsWith("[page 0] Memo number 0")
                .contains("[page 1] Memo number 1")
                .contains("[page 2] Memo number 2")
                .doesNotContain("Memo number 3");
        assertThat(context.indexOf("[page 1]")).isLessThan(context.indexOf("[page 2]"));
    }

    @Test
    void keepsTheMostRecentMemosThatFitTheBudgetAndSaysHowManyAreLeftOut() {
        int perMemo = TokenCounter.count("[page 4] " + MEMOS.get(4).text()) + 1;

        String context = MemoryContext.before(MEMOS, 6, 2 * perMemo + 1);

        assertThat(context)
                .startsWith("(the memos of 4 earlier pages are left out)")
                .contains("[page 4]")
                .contains("[page 5]")
                .doesNotContain("[page 3]");
        assertThat(context.indexOf("[page 4]")).isLessThan(context.indexOf("[page 5]"));
    }

    @Test
    void aPageOverTheLimitIsCutAtALineBoundaryAndSaysSo() {
        String page = IntStream.range(0, 400)
                .mapToObj(i -> "Caroline: line " + i + " of a very long session.")
                .reduce((a, b) -> a + "\n" + b)
                .orElseThrow();

        PageExcerpt excerpt = PageExcerpt.of(page, 500);
        PageExcerpt whole = PageExcerpt.of("A short page.", 500);

        assertThat(excerpt.cut()).isTrue();
        assertThat(TokenCounter.count(excerpt.text())).isLessThanOrEqualTo(500).isGreaterThan(400);
        assertThat(page).startsWith(excerpt.text() + "\n");
        assertThat(excerpt.note()).contains("too long");
        assertThat(whole.cut()).isFalse();
        assertThat(whole.text()).isEqualTo("A short page.");
        assertThat(whole.note()).isEmpty();
    }
}
