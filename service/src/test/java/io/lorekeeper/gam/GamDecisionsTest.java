package io.lorekeeper.gam;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import io.lorekeeper.retrieval.Retriever.MemoText;
import io.lorekeeper.text.TokenCounter;

/**
 * GAM's planner memory without a model or a database: every memo while they fit the budget, else the
 * ones that rank best on shared terms and similarity fused, within the budget and in page order; and
 * which pages count as the notes' sources.
 */
class GamDecisionsTest {

    private static final UUID DOC_A = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID DOC_B = UUID.fromString("00000000-0000-0000-0000-00000000000b");

    private static MemoText memo(UUID doc, int page, String text) {
        return new MemoText(doc, page, 0, 10, text);
    }

    private static int tokens(MemoText memo) {
        return MemoBook.of(List.of(memo), List.of(DOC_A, DOC_B)).totalTokens();
    }

    /** A similarity that must not be asked. */
    private static final Function<String, Map<PageRef, Double>> NEVER = request -> {
        throw new AssertionError("similarity asked although every memo fits");
    };

    @Test
    void withoutMemosThePlannerIsToldTheStageHasNotRun() {
        MemoBook.Shown shown = MemoBook.of(List.of(), List.of(DOC_A)).select("q", 1000, NEVER);
        assertThat(shown.rendered()).contains("memos stage has not run");
        assertThat(shown.refs()).isEmpty();
        assertThat(shown.tokens()).isZero();
    }

    @Test
    void everyMemoIsShownInPageOrderWhileTheyFitTheBudgetExactly() {
        List<MemoText> memos =
                List.of(memo(DOC_A, 0, "Pip meets a convict\non the marshes."), memo(DOC_B, 3, "Estella is cold."));
        MemoBook book = MemoBook.of(memos, List.of(DOC_A, DOC_B));
        assertThat(book.total()).isEqualTo(2);
        int total = tokens(memos.get(0)) + tokens(memos.get(1));
        assertThat(book.totalTokens()).isEqualTo(total);
        assertThat(tokens(memos.get(1)))
                .as("a memo's line and its line break")
                .isEqualTo(TokenCounter.count("D2-P3: Estella is cold.") + 1);

        MemoBook.Shown shown = book.select("anything", total, NEVER);
        assertThat(shown.rendered()).isEqualTo("D1-P0: Pip meets a convict on the marshes.\nD2-P3: Estella is cold.");
        assertThat(shown.refs()).containsExactly(new PageRef(1, 0), new PageRef(2, 3));
        assertThat(shown.tokens()).isEqualTo(total);
    }

    @Test
    void pastTheBudgetTheMemosRankingBestOnTermsAndSimilarityFusedAreShownInPageOrder() {
        MemoText bySimilarity = memo(DOC_A, 0, "A stranger pays for a gentleman's education.");
        MemoText offTopic = memo(DOC_A, 1, "The forge glows at night in the village.");
        MemoText byTerms = memo(DOC_A, 2, "Magwitch the convict returns from Australia.");
        MemoText both = memo(DOC_A, 3, "Magwitch reveals he is the benefactor.");
        List<MemoText> memos = List.of(bySimilarity, offTopic, byTerms, both);
        MemoBook book = MemoBook.of(memos, List.of(DOC_A));
        List<String> asked = new ArrayList<>();
        Function<String, Map<PageRef, Double>> similarity = request -> {
            asked.add(request);
            return Map.of(
                    new PageRef(1, 3), 0.9,
                    new PageRef(1, 0), 0.8,
                    new PageRef(1, 1), 0.1);
        };

        int budget = tokens(both) + tokens(bySimilarity) + 1;
        assertThat(budget).isLessThan(book.totalTokens());
        MemoBook.Shown two = book.select("Who is Magwitch the benefactor?", budget, similarity);
        assertThat(asked).containsExactly("Who is Magwitch the benefactor?");
        assertThat(two.refs())
                .as("the memo first on both rankings, then the one second on similarity; in page order")
                .containsExactly(new PageRef(1, 0), new PageRef(1, 3));
        assertThat(two.rendered()).startsWith("D1-P0: A stranger").contains("\nD1-P3: Magwitch reveals");
        assertThat(two.tokens()).isEqualTo(tokens(both) + tokens(bySimilarity));

        MemoBook.Shown one = book.select("Who is Magwitch the benefactor?", tokens(both), similarity);
        assertThat(one.refs()).as("exactly the budget").containsExactly(new PageRef(1, 3));

        MemoBook.Shown none = book.select("Who is Magwitch the benefactor?", tokens(both) - 1, similarity);
        assertThat(none.refs()).doesNotContain(new PageRef(1, 3));
    }

    @Test
    void aMemoTooLargeForWhatIsLeftIsSkippedAndASmallerLessRelevantOneStillFits() {
        MemoText large = memo(DOC_A, 0, "Magwitch benefactor " + "convict marsh Australia ".repeat(20));
        MemoText small = memo(DOC_A, 1, "Magwitch.");
        MemoText other = memo(DOC_A, 2, "Joe Gargery works the forge all day long in the village.");
        MemoBook book = MemoBook.of(List.of(large, small, other), List.of(DOC_A));
        Map<PageRef, Double> similar = Map.of(new PageRef(1, 0), 0.9, new PageRef(1, 1), 0.5);
        MemoBook.Shown shown = book.select("Magwitch benefactor", tokens(small) + tokens(other), request -> similar);
        assertThat(shown.refs())
                .as("the large memo ranks first but does not fit; the other two do")
                .containsExactly(new PageRef(1, 1), new PageRef(1, 2));
    }

    @Test
    void aPageWithoutASimilarityRanksBelowEveryPageWithOne() {
        MemoText unscored = memo(DOC_A, 0, "Alpha beta gamma delta.");
        MemoText negative = memo(DOC_A, 1, "Epsilon zeta eta theta.");
        MemoText lower = memo(DOC_A, 2, "Iota kappa lambda mu.");
        MemoBook book = MemoBook.of(List.of(unscored, negative, lower), List.of(DOC_A));
        int one = Math.max(tokens(unscored), Math.max(tokens(negative), tokens(lower)));
        MemoBook.Shown shown =
                book.select("nothing shared", one, request -> Map.of(new PageRef(1, 1), -0.5, new PageRef(1, 2), -0.9));
        assertThat(shown.refs()).containsExactly(new PageRef(1, 1));
    }

    @Test
    void theSourcesAreThePagesTheNotesCiteAmongThoseReadElseEveryPageRead() {
        PageRef p1 = new PageRef(1, 1);
        PageRef p2 = new PageRef(1, 2);
        PageRef unread = new PageRef(2, 9);
        Map<PageRef, PageSearch.Found> read = new java.util.LinkedHashMap<>();
        read.put(p1, new PageSearch.Found(p1, 1, 1, List.of()));
        read.put(p2, new PageSearch.Found(p2, 1, 2, List.of()));
        Integration cites = new Integration(
                null,
                "s",
                List.of(new Integration.Fact("f", List.of(unread, p2)), new Integration.Fact("g", List.of(p2))));
        assertThat(Excerpts.sources(cites, read)).containsExactly(p2);
        Integration citesUnread = new Integration(null, "s", List.of(new Integration.Fact("f", List.of(unread))));
        assertThat(Excerpts.sources(citesUnread, read)).containsExactly(p1, p2);
        assertThat(Excerpts.sources(Integration.empty(), read)).containsExactly(p1, p2);
    }

    @Test
    void theNotesRenderTheirFactsWithTheirPagesOrSayNothingIsGathered() {
        assertThat(Integration.empty().render()).isEqualTo("(nothing gathered yet)");
        assertThat(new Integration("why", " Summary. ", List.of()).render()).isEqualTo("Summary.");
        Integration notes = new Integration(
                null, "", List.of(new Integration.Fact(" Pip helps. ", List.of(new PageRef(1, 0), new PageRef(2, 4)))));
        assertThat(notes.render()).isEqualTo("- Pip helps. [D1-P0, D2-P4]");
    }

    @Test
    void theFusionAddsOneOverSixtyPlusTheRankOnEachRanking() {
        // 30 memos that share no term with the request keep page order on the terms ranking; the
        // similarity ranking below puts page 9 first with k = 60 and page 13 first with k = 58.
        int[] bySimilarity = {
            13, 20, 26, 9, 21, 7, 15, 16, 14, 23, 25, 29, 22, 6, 0, 5, 19, 11, 4, 2, 17, 3, 1, 10, 24, 8, 18, 27, 28, 12
        };
        List<MemoText> memos = new ArrayList<>();
        for (int page = 0; page < 30; page++) {
            memos.add(memo(DOC_A, page, "Page note."));
        }
        Map<PageRef, Double> similar = new java.util.HashMap<>();
        for (int rank = 0; rank < bySimilarity.length; rank++) {
            similar.put(new PageRef(1, bySimilarity[rank]), 1.0 - rank / 100.0);
        }
        MemoBook book = MemoBook.of(memos, List.of(DOC_A));
        int one = memos.stream().mapToInt(GamDecisionsTest::tokens).max().orElseThrow();
        assertThat(book.select("Who paid?", one, request -> similar).refs()).containsExactly(new PageRef(1, 9));
    }
}
