package io.lorekeeper.evaluator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.json.JsonMapper;

class DatasetsTest {

    private static Path data(String path) {
        return SharedData.require(path);
    }

    @Test
    void locomoDev3HasAll497QuestionsWithItsQuirksRepaired() {
        List<EvalItem> items = Datasets.load("locomo", data("locomo/locomo10_dev3.json"), 0);
        assertThat(items).hasSize(497);
        assertThat(items.stream().map(EvalItem::documentKey).distinct())
                .containsExactly("conv-26", "conv-30", "conv-41");
        assertThat(items.stream().filter(i -> i.category().equals("5")).count()).isEqualTo(112);
        // integer answers become strings
        assertThat(items.get(1).answers()).containsExactly("2022");
        // "D8:6; D9:17" is two turn ids
        assertThat(items.get(37).evidence()).containsExactly("D8:6", "D9:17");
        // sessions 20-35 of conv-26 have a date and no turns: left out
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> sessions =
                (List<Map<String, Object>>) items.getFirst().document().get("sessions");
        assertThat(sessions).hasSize(19);
        assertThat(sessions.getFirst())
                .containsEntry("id", "session_1")
                .containsEntry("dateTime", "1:56 pm on 8 May, 2023");
        String all = JsonMapper.builder().build().writeValueAsString(sessions);
        assertThat(all).contains("[shares a photo: ");
    }

    @Test
    void locomoToleratesMalformedEvidenceMissingAnswersAndEmptySessions(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("l.json");
        Files.writeString(file, """
                [{"sample_id": "s", "conversation": {"speaker_a": "A", "speaker_b": "B",
                  "session_1_date_time": "1 May", "session_1": [
                    {"speaker": "A", "dia_id": "D1:1", "text": "Hi"},
                    {"speaker": "B", "dia_id": "D1:2", "text": "", "blip_caption": "a dog on a beach", "img_url": ["x"]}],
                  "session_2_date_time": "2 May", "session_2": []},
                  "qa": [{"question": "q1", "answer": 7, "evidence": ["D:1:2"], "category": 2},
                         {"question": "q2", "adversarial_answer": "x", "evidence": ["D1:1, D1:9"], "category": 5}]}]""");
        List<EvalItem> items = Datasets.load("locomo", file, 0);
        assertThat(items).hasSize(2);
        assertThat(items.get(0).answers()).containsExactly("7");
        assertThat(items.get(0).evidence()).containsExactly("D1:2");
        assertThat(items.get(1).answers()).containsExactly("");
        assertThat(items.get(1).evidence()).containsExactly("D1:1", "D1:9");
        String doc =
                JsonMapper.builder().build().writeValueAsString(items.get(0).document());
        assertThat(doc)
                .contains("\"text\":\"[shares a photo: a dog on a beach]\"")
                .doesNotContain("session_2");
    }

    @Test
    void hotpotqaMakesOneDocumentPerQuestionWithSupportingParagraphsAsEvidence() {
        List<EvalItem> items = Datasets.load("hotpotqa", data("hotpotqa/hotpotqa_distractor_dev100.jsonl"), 5);
        assertThat(items).hasSize(5);
        EvalItem first = items.getFirst();
        assertThat(first.answers()).containsExactly("Chief of Protocol");
        assertThat(first.evidence()).hasSize(2);
        String text = (String) first.document().get("text");
        assertThat(text).startsWith("Meet Corliss Archer\nMeet Corliss Archer, a program");
        first.evidence().forEach(e -> assertThat(TextLocator.find(text, e)).isNotNull());
    }

    @Test
    void loogleParsesPythonLiteralQaPairsAndMultipleChoice() {
        List<EvalItem> items = Datasets.load("loogle", data("loogle"), 0);
        assertThat(items).isNotEmpty();
        EvalItem first = items.getFirst();
        assertThat(first.category()).startsWith("longdep/");
        assertThat(first.choices()).containsExactly("seven", "six", "five", "four");
        assertThat(first.answerIndex()).isEqualTo(2);
        assertThat(first.answers()).containsExactly("five");
        assertThat(first.question()).isEqualTo("How many people were in Picardo's family when he was twelve?");
        assertThat(items.stream().filter(i -> i.category().equals("shortdep")).count())
                .isPositive();
        assertThat(items.stream().map(EvalItem::documentKey).distinct().count()).isLessThanOrEqualTo(10);
    }

    @Test
    void comoragSample() {
        List<EvalItem> items = Datasets.load("comorag", data("comorag"), 0);
        assertThat(items).hasSize(3);
        assertThat(items.getFirst().answers()).containsExactly("Be good and pious", "God will protect you");
        assertThat((String) items.getFirst().document().get("text")).contains("Cinderella");
    }

    @Test
    void genericJsonl(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("g.jsonl");
        Files.writeString(file, """
                {"id": "a", "document": {"title": "T", "text": "The sky is blue."}, "question": "Colour?", "answer": "blue", "evidence": ["The sky is blue."], "category": "x"}
                {"id": "b", "document": {"title": "T", "text": "The sky is blue."}, "question": "Which?", "answer": "blue", "choices": ["red", "blue"]}
                {"id": "c", "sessions": [{"id": "s1", "turns": [{"id": "t1", "speaker": "A", "text": "hello"}]}], "question": "Who?", "answer": ["A", "a"], "evidence": ["t1"]}
                """);
        List<EvalItem> items = Datasets.load("jsonl", file, 0);
        assertThat(items).extracting(EvalItem::id).containsExactly("a", "b", "c");
        assertThat(items.get(0).documentKey()).isEqualTo(items.get(1).documentKey());
        assertThat(items.get(1).answerIndex()).isEqualTo(1);
        assertThat(items.get(2).conversation()).isTrue();
        assertThat(items.get(2).answers()).containsExactly("A", "a");
        Files.writeString(file, "{\"id\": \"x\", \"question\": \"q\"}\n");
        assertThatThrownBy(() -> Datasets.load("jsonl", file, 0)).hasMessageContaining("text, path or sessions");
    }

    @Test
    void aJsonlDocumentCanNameItsTextFile(@TempDir Path dir) throws Exception {
        Path book = dir.resolve("book.txt");
        Files.writeString(book, "Chapter one. The keeper lit the lamp.");
        Path file = dir.resolve("g.jsonl");
        String document = "{\"title\": \"Book\", \"path\": \"" + book.toString().replace("\\", "/") + "\"}";
        Files.writeString(
                file,
                "{\"id\": \"a\", \"document\": " + document + ", \"question\": \"Who?\", \"answer\": \"keeper\"}\n"
                        + "{\"id\": \"b\", \"document\": " + document
                        + ", \"question\": \"What?\", \"answer\": \"lamp\"}\n");

        List<EvalItem> items = Datasets.load("jsonl", file, 0);

        assertThat((String) items.getFirst().document().get("text")).isEqualTo("Chapter one. The keeper lit the lamp.");
        assertThat(items.get(0).documentKey()).isEqualTo(items.get(1).documentKey());
    }

    /**
     * The natural questions over whole novels (evaluator/data/novel-questions.jsonl): each answer, as
     * it is given, occurs in its novel, so answer-in-context can reach every question.
     */
    @Test
    void everyNovelQuestionsAnswerOccursInItsNovel() {
        SharedData.require("novels");
        List<EvalItem> items = Datasets.load("jsonl", Path.of("evaluator", "data", "novel-questions.jsonl"), 0);

        assertThat(items).hasSizeGreaterThanOrEqualTo(60);
        assertThat(items.stream().map(EvalItem::category).distinct()).hasSize(3);
        for (EvalItem item : items) {
            String text = (String) item.document().get("text");
            assertThat(Metrics.answerInContext(item.answers(), List.of(text)))
                    .as("%s: %s", item.id(), item.answers())
                    .isEqualTo(1.0);
        }
    }

    @Test
    void pythonLiterals() {
        Object parsed = PythonLiteral.parse(
                "[{'Q': \"It's\", 'A': '3', 'S': ['a\\nb', 'c'], 'n': 2, 'f': -1.5, 'ok': True, 'no': None, 't': (1,)},"
                        + " {'Q': 'x' 'y', \"d\": {'k': False}}]");
        assertThat(parsed)
                .isEqualTo(List.of(
                        new java.util.LinkedHashMap<>(Map.of(
                                "Q",
                                "It's",
                                "A",
                                "3",
                                "S",
                                List.of("a\nb", "c"),
                                "n",
                                2L,
                                "f",
                                -1.5,
                                "ok",
                                true,
                                "t",
                                List.of(1L))) {
                            {
                                put("no", null);
                            }
                        },
                        Map.of("Q", "xy", "d", Map.of("k", false))));
        assertThatThrownBy(() -> PythonLiteral.parse("[1, 2")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PythonLiteral.parse("__import__('os')")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void textLocatorFindsVerbatimAndWhitespaceNormalisedSnippets() {
        assertThat(TextLocator.find("ab cd  ef", "cd")).containsExactly(3, 5);
        assertThat(TextLocator.find("ab cd  ef\ngh", "cd ef gh")).containsExactly(3, 12);
        assertThat(TextLocator.find("abc", "zzz")).isNull();
    }

    @Test
    void textLocatorFindsEvidenceCopiedFromAnotherRenderingApproximately() {
        String text = "Intro. The sound of the gunshot was very different from that of a conventional firearm,\n"
                + "reminiscent of fireworks or a tire blowout. Outro.";
        String copied = "the sound of the gunshot was very different from that of a conventional firearm,?\n"
                + "reminiscent of fireworks or tire blowout";
        int[] span = TextLocator.find(text, copied);
        assertThat(span).isNotNull();
        assertThat(text.substring(span[0], span[1])).startsWith("The sound").endsWith("tire blowout");

        assertThat(TextLocator.find(
                        text, "the sound of the gunshot was nothing like anything the guards knew or feared"))
                .as("one anchor shared, most words not")
                .isNull();
        assertThat(TextLocator.find(text, "gunshot firearm"))
                .as("too short to anchor")
                .isNull();
    }

    @Test
    void mostLoogleLongDependencyEvidenceIsLocated() {
        List<EvalItem> longdep = Datasets.load("loogle", data("loogle"), 0).stream()
                .filter(i -> i.category().startsWith("longdep"))
                .toList();
        int total = 0;
        int located = 0;
        List<String> elsewhere = new java.util.ArrayList<>();
        for (EvalItem item : longdep) {
            String text = (String) item.document().get("text");
            for (String evidence : item.evidence()) {
                total++;
                int[] span = TextLocator.find(text, evidence);
                if (span == null) {
                    continue;
                }
                // a span counts only if it is the evidence: most of its words are the evidence's and vice versa
                String found = text.substring(span[0], span[1]);
                double recall = sharedWords(evidence, found);
                double precision = sharedWords(found, evidence);
                if (recall >= 0.75 && precision >= 0.75) {
                    located++;
                } else {
                    elsewhere.add(String.format("%.2f/%.2f %s", recall, precision, evidence));
                }
            }
        }
        System.out.printf("LooGLE long-dependency evidence located: %d of %d%n", located, total);
        assertThat(total).isPositive();
        assertThat(elsewhere).as("spans returned that are not the evidence").isEmpty();
        assertThat(located).as("111 of 124 when written; 59 verbatim").isGreaterThanOrEqualTo((int) (0.85 * total));
    }

    /** The share of {@code a}'s words (lower case, letters and digits, with repeats) that {@code b} also has. */
    private static double sharedWords(String a, String b) {
        java.util.Map<String, Integer> left = new java.util.HashMap<>();
        for (String w : b.toLowerCase(java.util.Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty()) {
                left.merge(w, 1, Integer::sum);
            }
        }
        int words = 0;
        int shared = 0;
        for (String w : a.toLowerCase(java.util.Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (w.isEmpty()) {
                continue;
            }
            words++;
            Integer n = left.get(w);
            if (n != null && n > 0) {
                left.put(w, n - 1);
                shared++;
            }
        }
        return words == 0 ? 0 : (double) shared / words;
    }
}
