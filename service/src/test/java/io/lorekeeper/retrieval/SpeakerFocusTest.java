package io.lorekeeper.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.document.search.SearchHit;

class SpeakerFocusTest {

    private static final UUID DOC = UUID.fromString("00000000-0000-0000-0000-000000000001");

    /** Fused hits in rank order, each spoken by the given speaker (null: a plain text's chunk). */
    private static List<SearchHit> ranked(String... speakers) {
        List<SearchHit> hits = new ArrayList<>();
        for (int i = 0; i < speakers.length; i++) {
            hits.add(new SearchHit(
                    DOC,
                    i,
                    0,
                    i * 100,
                    i * 100 + 90,
                    "turn " + i,
                    List.of("D1:" + i),
                    speakers[i] == null ? List.of() : List.of(speakers[i]),
                    1.0 / (RankFusion.C + i + 1)));
        }
        return hits;
    }

    private static List<Integer> ordinals(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::chunkOrdinal).toList();
    }

    @Test
    void theVectorSearchEmbedsTheQuestionWithoutTheSpeakerItNames() {
        List<SearchHit> found = ranked("Caroline", "Melanie", null);

        assertThat(SpeakerFocus.withoutNamedSpeakers("What does Melanie do to destress?", found))
                .isEqualTo("What does they do to destress?");
        assertThat(SpeakerFocus.withoutNamedSpeakers("What do Melanie’s kids like? Ask Melanie.", found))
                .isEqualTo("What do they kids like? Ask they.");
        assertThat(SpeakerFocus.withoutNamedSpeakers("What did Mel paint? Melanies?", found))
                .as("a name only as a whole word")
                .isEqualTo("What did Mel paint? Melanies?");
        assertThat(SpeakerFocus.withoutNamedSpeakers("What do Caroline and Melanie both like?", found))
                .as("both speakers named: nothing to tell apart")
                .isEqualTo("What do Caroline and Melanie both like?");
        assertThat(SpeakerFocus.withoutNamedSpeakers("What does Melanie do?", ranked(null, null)))
                .as("a plain text has no speakers")
                .isEqualTo("What does Melanie do?");
    }

    @Test
    void raisesTheTurnsOfTheSpeakerTheQuestionNames() {
        List<SearchHit> fused = ranked("Caroline", "Caroline", "Melanie", "Caroline", "Melanie");

        List<SearchHit> focused = SpeakerFocus.apply(fused, "What does Melanie do to destress?", 5);

        assertThat(ordinals(focused)).containsExactly(2, 4, 0, 1, 3);
        assertThat(focused.getFirst().score()).isEqualTo(fused.get(2).score() * (1 + SpeakerFocus.RAISE));
        assertThat(focused.get(2).score())
                .as("the other speaker's turns keep their score")
                .isEqualTo(fused.getFirst().score());
    }

    @Test
    void aRaiseIsNotAnOverride() {
        // far down the list, a named speaker's turn does not jump over the other's best ones
        List<SearchHit> fused = ranked(
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Caroline",
                "Melanie");

        assertThat(ordinals(SpeakerFocus.apply(fused, "Where did Melanie camp?", 3)))
                .containsExactly(0, 1, 2);
    }

    @Test
    void possessiveNamesCountButLongerWordsDoNot() {
        assertThat(SpeakerFocus.names("What do Melanie's kids like?", "Melanie"))
                .isTrue();
        assertThat(SpeakerFocus.names("Where is Jon Smith now?", "Jon Smith")).isTrue();
        assertThat(SpeakerFocus.names("What did Jonathan say?", "Jon")).isFalse();
        assertThat(SpeakerFocus.names("what did melanie say?", "Melanie"))
                .as("names are matched as written")
                .isFalse();
    }

    @Test
    void changesNothingWhenNoSpeakerOrEverySpeakerIsNamed() {
        List<SearchHit> fused = ranked("Jon", "Gina", "Jon", "Gina");

        assertThat(SpeakerFocus.apply(fused, "What do Jon and Gina have in common?", 4))
                .isEqualTo(fused);
        assertThat(SpeakerFocus.apply(fused, "Which cities were visited?", 4)).isEqualTo(fused);
        assertThat(SpeakerFocus.apply(ranked(null, null, null), "What did Pip say?", 3))
                .hasSize(3);
    }

    @Test
    void keepsAtMostK() {
        List<SearchHit> fused = ranked("Jon", "Gina", "Jon", "Gina");

        assertThat(ordinals(SpeakerFocus.apply(fused, "Where did Gina go?", 2))).containsExactly(1, 3);
        assertThat(SpeakerFocus.apply(fused, "Where did anyone go?", 2)).hasSize(2);
    }
}
