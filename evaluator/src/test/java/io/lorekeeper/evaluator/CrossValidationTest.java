package io.lorekeeper.evaluator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiFunction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.lorekeeper.evaluator.AnswerCandidates.AnswerCandidate;
import io.lorekeeper.evaluator.EvalRunner.Asked;
import io.lorekeeper.evaluator.EvalRunner.Cost;
import io.lorekeeper.evaluator.EvalRunner.Evidence;
import io.lorekeeper.evaluator.EvalRunner.ItemResult;
import io.lorekeeper.evaluator.EvalRunner.Reply;
import io.lorekeeper.evaluator.EvalRunner.Scores;
import io.lorekeeper.evaluator.EvalRunner.Timings;

/**
 * Synthetic LoCoMo results (three conversations, four candidates per question, the service always answering with
 * the first) on which the right answer is marked by a feature the ranker can learn.
 */
class CrossValidationTest {

    private static final List<String> CONVERSATIONS = List.of("conv-a", "conv-b", "conv-c");
    private static final int CANDIDATES = 4;

    /**
     * @param marker the features of candidate {@code i} of item {@code n} in conversation {@code conv}, given
     *               whether it is the right one
     */
    private static List<ItemResult> items(int perConversation, Marker marker) {
        Random random = new Random(11);
        List<ItemResult> items = new ArrayList<>();
        for (String conv : CONVERSATIONS) {
            for (int n = 1; n <= perConversation; n++) {
                String gold = "answer" + conv.charAt(5) + n;
                int right = (n * 7 + conv.charAt(5)) % CANDIDATES;
                List<AnswerCandidate> candidates = new ArrayList<>();
                for (int i = 0; i < CANDIDATES; i++) {
                    Map<String, Double> features = new LinkedHashMap<>(marker.features(conv, i == right));
                    features.put("noise", random.nextDouble());
                    candidates.add(new AnswerCandidate(i == right ? gold : "wrong" + i, "names", features));
                }
                String answer = candidates.getFirst().text(); // the shipped ranker: always the first
                items.add(new ItemResult(
                        new Asked(conv + "/" + n, "4", "extractive", "Q" + n + "?", List.of(gold), null),
                        new Reply(
                                "q", "DONE", answer, null, null, null, null, new AnswerCandidates(candidates, 0, true)),
                        new Scores(answer.equals(gold) ? 1.0 : 0.0, null, null, null),
                        new Evidence(null, 0, 0, 0, null, null),
                        Cost.NONE,
                        new Timings(1, null)));
            }
        }
        return items;
    }

    interface Marker {
        Map<String, Double> features(String conversation, boolean right);
    }

    @Test
    void aFeatureThatMarksTheRightCandidateIsLearnedAndPicksItOnHeldOutConversations() {
        List<ItemResult> items = items(30, (conv, right) -> Map.of("marks", right ? 1.0 : 0.0));

        CrossValidation.AnswerF1 f1 = RankerCrossValidation.answerF1("locomo", CONVERSATIONS, items);

        assertThat(f1.n()).isEqualTo(90);
        assertThat(f1.withCandidates()).isEqualTo(90);
        assertThat(f1.reported()).isLessThan(0.5);
        assertThat(f1.dev()).isEqualTo(1.0);
        assertThat(f1.crossValidated()).isEqualTo(1.0);
        assertThat(f1.gap()).isEqualTo(0.0);
        assertThat(f1.oracle()).isEqualTo(1.0);
        assertThat(f1.perFold()).extracting(CrossValidation.FoldF1::fold).containsExactlyElementsOf(CONVERSATIONS);
        assertThat(f1.perFold().getFirst().fittedOn()).containsExactly("conv-b", "conv-c");

        SpanRankerFit.Model model = SpanRankerFit.fit(
                items.stream().map(r -> SpanRankerFit.example("locomo", r)).toList());
        assertThat(model.weights().get("marks"))
                .isGreaterThan(10 * Math.abs(model.weights().get("noise")));
    }

    @Test
    void aFeatureThatOnlyMarksTheRightCandidateInTheTrainingFoldsShowsAsTheGap() {
        // each conversation has its own marker: learnable in-sample, useless on a conversation never trained on
        List<ItemResult> items = items(30, (conv, right) -> Map.of("only_" + conv, right ? 1.0 : 0.0));

        CrossValidation.AnswerF1 f1 = RankerCrossValidation.answerF1("locomo", CONVERSATIONS, items);

        assertThat(f1.dev()).isEqualTo(1.0);
        assertThat(f1.crossValidated()).isLessThan(0.5);
        assertThat(f1.gap()).isGreaterThan(0.5);
        assertThat(f1.perFold())
                .allSatisfy(fold -> assertThat(fold.crossValidated()).isLessThan(0.6));
    }

    @Test
    void itemsWithoutUsableCandidatesKeepTheirReportedScoreInEveryColumn() {
        List<ItemResult> items = new ArrayList<>(items(10, (conv, right) -> Map.of("marks", right ? 1.0 : 0.0)));
        // a yes/no answer: its candidates must not replace it
        BiFunction<String, Boolean, ItemResult> yesNo = (id, answered) -> new ItemResult(
                new Asked(id, "4", "extractive", "Did she?", List.of("yes"), null),
                new Reply(
                        "q",
                        "DONE",
                        "yes",
                        null,
                        null,
                        null,
                        null,
                        new AnswerCandidates(
                                List.of(new AnswerCandidate("Paris", "names", Map.of("marks", 1.0))), 0, answered)),
                new Scores(1.0, null, null, null),
                new Evidence(null, 0, 0, 0, null, null),
                Cost.NONE,
                new Timings(1, null));
        items.add(yesNo.apply("conv-a/99", false));

        CrossValidation.AnswerF1 f1 = RankerCrossValidation.answerF1("locomo", CONVERSATIONS, items);

        assertThat(f1.n()).isEqualTo(31);
        assertThat(f1.withCandidates()).isEqualTo(30);
        assertThat(f1.dev()).isEqualTo(1.0);
        assertThat(f1.crossValidated()).isEqualTo(1.0);
    }

    @Test
    void theSearchProbeIsChosenPerCategoryOnTheOtherFolds() {
        List<ItemResult> items = new ArrayList<>();
        for (String conv : CONVERSATIONS) {
            for (int n = 1; n <= 4; n++) {
                String category = n % 2 == 1 ? "1" : "2";
                // hybrid finds multi-hop evidence, deep temporal evidence; in conv-c deep wins multi-hop too
                double hybrid = category.equals("1") ? (conv.equals("conv-c") ? 0.2 : 0.9) : 0.1;
                double deep = category.equals("1") ? 0.5 : 0.8;
                items.add(probe(conv + "/" + n, category, "search:hybrid", hybrid));
                items.add(probe(conv + "/" + n, category, "search:deep", deep));
            }
        }

        CrossValidation.EvidenceRecall recall =
                ProbeCrossValidation.recall("locomo", CONVERSATIONS, List.of("search:hybrid", "search:deep"), items);

        assertThat(recall.categories()).containsExactly("1", "2", "overall");
        Map<String, Double> hybrid = recall.rows().get(0).recall();
        assertThat(hybrid.get("1")).isCloseTo((0.9 + 0.9 + 0.2) / 3, within(1e-9));
        CrossValidation.RecallRow chosen = recall.rows().stream()
                .filter(r -> r.strategy().startsWith("chosen"))
                .findFirst()
                .orElseThrow();
        // multi-hop: hybrid is chosen for every held-out conversation (conv-c included, where deep was better)
        assertThat(recall.chosen())
                .allSatisfy(c -> assertThat(c.strategy())
                        .containsEntry("1", "search:hybrid")
                        .containsEntry("2", "search:deep"));
        assertThat(chosen.recall().get("1")).isCloseTo((0.9 + 0.9 + 0.2) / 3, within(1e-9));
        assertThat(chosen.recall().get("2")).isCloseTo(0.8, within(1e-9));
    }

    @Test
    void writesTheReportFromReportJsonFiles(@TempDir Path dir) {
        List<ItemResult> items = items(10, (conv, right) -> Map.of("marks", right ? 1.0 : 0.0));
        Path folder = Report.of("locomo", List.of("extractive"), Instant.EPOCH, Instant.EPOCH, items)
                .write(dir.resolve("locomo"));

        CrossValidation.Result result = CrossValidation.of(List.of(folder.resolve("report.json")));
        CrossValidation.write(result, dir.resolve("cv"));

        assertThat(result.datasets()).singleElement().satisfies(d -> {
            assertThat(d.folds()).containsExactlyElementsOf(CONVERSATIONS);
            assertThat(d.f1().crossValidated()).isEqualTo(1.0);
        });
        assertThat(dir.resolve("cv/cv.json")).exists();
        assertThat(dir.resolve("cv/cv.md")).content().contains("| cross-validated | the other folds |");
    }

    @Test
    void hashedDatasetsAreCrossValidatedUnderSeveralFoldAssignments() {
        List<ItemResult> items = items(10, (conv, right) -> Map.of("marks", right ? 1.0 : 0.0));

        CrossValidation.AnswerF1 hashed =
                CrossValidation.of("hotpotqa", List.of("extractive"), items).f1();
        CrossValidation.AnswerF1 byConversation =
                CrossValidation.of("locomo", List.of("extractive"), items).f1();

        assertThat(hashed.rounds()).hasSize(Folds.ROUNDS).first().isEqualTo(hashed.crossValidated());
        assertThat(hashed.rounds()).allSatisfy(f1 -> assertThat(f1).isEqualTo(1.0));
        assertThat(byConversation.rounds()).containsExactly(byConversation.crossValidated());
    }

    @Test
    void anAblationIsTheMeanOverEveryFoldAssignment() {
        // candidates are dates or names at random and a weak, noisy marker points at the right one: each split of
        // the items into folds gives its own figure
        Random random = new Random(5);
        List<ItemResult> items = items(
                10,
                (conv, right) -> Map.of(
                        random.nextBoolean() ? "kind:date" : "kind:names",
                        1.0,
                        "weak",
                        (right ? 0.2 : 0.0) + random.nextDouble()));
        List<String> folds = Folds.names(
                "hotpotqa", items.stream().map(i -> i.asked().itemId()).toList());
        SpanRankerFit.Settings settings = new SpanRankerFit.Settings(0.01);
        java.util.function.Function<String, List<Double>> rounds = without -> RankerCrossValidation.answerF1(
                        "hotpotqa", folds, items, List.of(), without, settings, Folds.ROUNDS)
                .rounds();

        List<CrossValidation.Ablation> ablations = CandidateAblations.of("hotpotqa", folds, items, List.of(), settings);

        assertThat(rounds.apply(null)).hasSize(Folds.ROUNDS);
        assertThat(new java.util.HashSet<>(rounds.apply(null))).hasSizeGreaterThan(1);
        assertThat(ablations).extracting(CrossValidation.Ablation::without).containsExactly("kind:date", "kind:names");
        for (CrossValidation.Ablation a : ablations) {
            assertThat(a.crossValidated()).isCloseTo(mean(rounds.apply(a.without())), within(1e-12));
            assertThat(a.delta()).isCloseTo(mean(rounds.apply(null)) - a.crossValidated(), within(1e-12));
        }
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }

    private static ItemResult probe(String id, String category, String strategy, double recall) {
        return new ItemResult(
                new Asked(id, category, strategy, "Q?", List.of("a"), null),
                new Reply(null, "DONE", null, null, null, null, null, null),
                Scores.NONE,
                new Evidence(recall, 1, 0, 1, 10, null),
                Cost.NONE,
                new Timings(1, null));
    }
}
