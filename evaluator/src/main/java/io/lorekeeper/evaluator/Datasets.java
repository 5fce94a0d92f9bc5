package io.lorekeeper.evaluator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Loaders for the evaluation datasets. Each turns the files as published into {@link EvalItem}s;
 * quirks are handled here, not in the metrics.
 */
public final class Datasets {

    private Datasets() {}

    static final JsonMapper JSON = JsonMapper.builder().build();
    public static final List<String> NAMES = List.of("locomo", "hotpotqa", "loogle", "comorag", "jsonl", "ruler");

    /** Loads up to {@code limit} items (0: all) of a dataset from a file or folder. */
    public static List<EvalItem> load(String dataset, Path path, int limit) {
        List<EvalItem> items = switch (dataset.toLowerCase(Locale.ROOT)) {
            case "locomo" -> locomo(path);
            case "hotpotqa" -> hotpotqa(path);
            case "loogle" -> loogle(path);
            case "comorag" -> comorag(path);
            case "jsonl" -> jsonl(lines(path));
            // RULER with its defaults (every task, 4,000 tokens, seed 42, 10 items each); the CLI sets them with
            // lorekeeper.eval.ruler.*
            case "ruler" -> Ruler.generate(path, Ruler.TASKS, 4000, 42, 10);
            default -> throw new IllegalArgumentException("unknown dataset '" + dataset + "'; known: " + NAMES);
        };
        return limit > 0 && items.size() > limit ? List.copyOf(items.subList(0, limit)) : items;
    }

    // ---- LoCoMo ----

    private static final Pattern SESSION = Pattern.compile("session_(\\d+)");
    private static final Pattern DIA_ID = Pattern.compile("D:?(\\d+):(\\d+)");

    /**
     * LoCoMo: one conversation document per sample; turn ids are the dia_ids, so gold evidence maps
     * to turns. Sessions with a date but no turns are left out (they render nothing); an image turn
     * keeps its text and gets its caption appended as "[shares a photo: caption]"; integer answers
     * become strings; category 5 items (adversarial, usually without an answer) keep their
     * adversarial answer only as metadata; evidence ids are split on ";", "," and spaces and
     * repaired ("D:11:26" is D11:26). Ids of turns that do not exist are kept here and reported as
     * unresolved by the runner.
     */
    static List<EvalItem> locomo(Path path) {
        JsonNode root = read(path);
        List<EvalItem> items = new ArrayList<>();
        for (JsonNode sample : root) {
            String sampleId = sample.path("sample_id").asString("conv-" + items.size());
            Map<String, Object> document = locomoDocument(sampleId, sample.path("conversation"));
            int n = 0;
            for (JsonNode qa : sample.path("qa")) {
                n++;
                int category = qa.path("category").asInt(0);
                JsonNode answer = qa.get("answer");
                String gold = answer == null || answer.isNull() ? "" : answer.asString();
                items.add(new EvalItem(
                        sampleId + "/" + n,
                        "locomo",
                        sampleId,
                        document,
                        qa.path("question").asString(),
                        List.of(gold),
                        List.of(),
                        null,
                        evidenceIds(qa.path("evidence")),
                        String.valueOf(category)));
            }
        }
        return items;
    }

    static Map<String, Object> locomoDocument(String sampleId, JsonNode conversation) {
        TreeMap<Integer, JsonNode> sessions = new TreeMap<>();
        for (String name : conversation.propertyNames()) {
            Matcher m = SESSION.matcher(name);
            if (m.matches()) {
                sessions.put(Integer.parseInt(m.group(1)), conversation.get(name));
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (var entry : sessions.entrySet()) {
            List<Map<String, Object>> turns = new ArrayList<>();
            for (JsonNode turn : entry.getValue()) {
                String text = turn.path("text").asString("").strip();
                String caption = turn.path("blip_caption").asString("").strip();
                if (!caption.isEmpty()) {
                    text = (text.isEmpty() ? "" : text + " ") + "[shares a photo: " + caption + "]";
                }
                if (text.isEmpty()) {
                    continue;
                }
                Map<String, Object> t = new LinkedHashMap<>();
                t.put("id", turn.path("dia_id").asString(null));
                t.put("speaker", turn.path("speaker").asString("?"));
                t.put("text", text);
                turns.add(t);
            }
            if (turns.isEmpty()) {
                continue;
            }
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("id", "session_" + entry.getKey());
            String date = conversation
                    .path("session_" + entry.getKey() + "_date_time")
                    .asString("");
            if (!date.isBlank()) {
                s.put("dateTime", date);
            }
            s.put("turns", turns);
            out.add(s);
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("title", "LoCoMo " + sampleId);
        document.put("sessions", out);
        return document;
    }

    /** Gold turn ids, split and repaired: "D8:6; D9:17" is two ids, "D:11:26" is D11:26. */
    static List<String> evidenceIds(JsonNode evidence) {
        List<String> ids = new ArrayList<>();
        for (JsonNode e : evidence) {
            Matcher m = DIA_ID.matcher(e.asString(""));
            while (m.find()) {
                String id = "D" + Integer.parseInt(m.group(1)) + ":" + Integer.parseInt(m.group(2));
                if (!ids.contains(id)) {
                    ids.add(id);
                }
            }
        }
        return ids;
    }

    // ---- HotpotQA (IRCoT's distractor format) ----

    /**
     * HotpotQA distractor: each question's ten paragraphs ("title" line, then the paragraph) as one
     * text document; gold evidence is the supporting paragraphs (this subsample marks supporting
     * facts per paragraph); gold answers are the answer spans (or number/date when there is no span).
     */
    static List<EvalItem> hotpotqa(Path path) {
        List<EvalItem> items = new ArrayList<>();
        for (JsonNode q : lines(path)) {
            String id = q.path("question_id").asString();
            StringBuilder text = new StringBuilder();
            List<String> evidence = new ArrayList<>();
            for (JsonNode p : q.path("contexts")) {
                text.append(p.path("title").asString())
                        .append('\n')
                        .append(p.path("paragraph_text").asString().strip())
                        .append("\n\n");
                if (p.path("is_supporting").asBoolean(false)) {
                    evidence.add(p.path("paragraph_text").asString().strip());
                }
            }
            List<String> answers = new ArrayList<>();
            for (JsonNode a : q.path("answers_objects")) {
                a.path("spans").forEach(s -> answers.add(s.asString()));
                if (!a.path("number").asString("").isBlank()) {
                    answers.add(a.path("number").asString());
                }
            }
            Map<String, Object> document =
                    Map.of("title", "HotpotQA " + id, "text", text.toString().strip());
            items.add(new EvalItem(
                    id,
                    "hotpotqa",
                    id,
                    document,
                    q.path("question_text").asString(),
                    answers,
                    List.of(),
                    null,
                    evidence,
                    "all"));
        }
        return items;
    }

    // ---- LooGLE ----

    private static final Pattern CHOICE = Pattern.compile("^\\s*(\\d+)[.)]\\s+(.+)$");

    /**
     * LooGLE (a .jsonl file, or a folder holding longdep_qa.jsonl and/or shortdep_qa.jsonl): one text
     * document per record, {@code qa_pairs} parsed as a Python literal. A question whose last lines
     * are numbered options and whose answer is a number is multiple choice (the answer is the 1-based
     * option). Category: {@code longdep/<type>} or {@code shortdep}. Evidence: the {@code S} sentences.
     *
     * <p>Kept as one method on purpose: it reads as the record format, field by field, which is where
     * a reader checks it against the dataset.
     */
    static List<EvalItem> loogle(Path path) {
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(path)) {
            for (String name : List.of("longdep_qa.jsonl", "shortdep_qa.jsonl")) {
                if (Files.exists(path.resolve(name))) {
                    files.add(path.resolve(name));
                }
            }
        } else {
            files.add(path);
        }
        List<EvalItem> items = new ArrayList<>();
        for (Path file : files) {
            String kind = file.getFileName().toString().startsWith("long") ? "longdep" : "shortdep";
            int record = 0;
            for (JsonNode doc : lines(file)) {
                record++;
                String text = doc.path("input").asString();
                String title = doc.path("title").asString("LooGLE " + record);
                String key = "loogle/" + title + "/" + Integer.toHexString(text.hashCode());
                Map<String, Object> document = Map.of("title", title, "text", text);
                Object parsed = PythonLiteral.parse(doc.path("qa_pairs").asString("[]"));
                int n = 0;
                for (Object o : parsed instanceof List<?> list ? list : List.of()) {
                    if (!(o instanceof Map<?, ?> qa)) {
                        continue;
                    }
                    n++;
                    String question = String.valueOf(qa.get("Q")).strip();
                    String answer = String.valueOf(qa.get("A")).strip();
                    List<String> choices = new ArrayList<>();
                    Integer answerIndex = null;
                    List<String> lines = new ArrayList<>(List.of(question.split("\n")));
                    List<String> options = new ArrayList<>();
                    while (!lines.isEmpty() && CHOICE.matcher(lines.getLast()).matches()) {
                        options.addFirst(lines.removeLast());
                    }
                    if (options.size() >= 2 && answer.matches("\\d+") && !lines.isEmpty()) {
                        for (String option : options) {
                            Matcher m = CHOICE.matcher(option);
                            m.matches();
                            choices.add(m.group(2).strip());
                        }
                        int index = Integer.parseInt(answer) - 1;
                        if (index >= 0 && index < choices.size()) {
                            answerIndex = index;
                            question = String.join("\n", lines).strip();
                            answer = choices.get(index);
                        } else {
                            choices.clear();
                        }
                    }
                    List<String> evidence = new ArrayList<>();
                    Object s = qa.get("S");
                    if (s instanceof List<?> list) {
                        list.forEach(x -> evidence.add(String.valueOf(x)));
                    } else if (s != null) {
                        evidence.add(String.valueOf(s));
                    }
                    Object type = qa.get("type");
                    String category = kind + (type == null ? "" : "/" + type);
                    items.add(new EvalItem(
                            key + "/" + kind + "/" + n,
                            "loogle",
                            key,
                            document,
                            question,
                            List.of(answer),
                            choices,
                            answerIndex,
                            evidence,
                            category));
                }
            }
        }
        return items;
    }

    // ---- ComoRAG sample ----

    /** The ComoRAG sample: a folder with the story (cinderella.txt) and qas.jsonl ({id, question, golden_answers}). */
    static List<EvalItem> comorag(Path path) {
        Path folder = Files.isDirectory(path) ? path : path.getParent();
        Path story;
        try (var files = Files.list(folder)) {
            story = files.filter(f -> f.toString().endsWith(".txt"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no .txt story in " + folder));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String name = story.getFileName().toString().replace(".txt", "");
        String title = Character.toUpperCase(name.charAt(0)) + name.substring(1);
        Map<String, Object> document = Map.of("title", title, "text", readString(story));
        List<EvalItem> items = new ArrayList<>();
        for (JsonNode q : lines(folder.resolve("qas.jsonl"))) {
            List<String> answers = new ArrayList<>();
            q.path("golden_answers").forEach(a -> answers.add(a.asString()));
            items.add(new EvalItem(
                    "comorag/" + q.path("id").asString(),
                    "comorag",
                    "comorag/" + name,
                    document,
                    q.path("question").asString(),
                    answers,
                    List.of(),
                    null,
                    List.of(),
                    "all"));
        }
        return items;
    }

    // ---- generic JSONL ----

    /**
     * The generic format, one JSON object per line:
     * {@code {id, document: {title?, text} | {title?, path} | {title?, sessions: [...]}, question, answer: string | [strings],
     * choices?: [strings], answerIndex?: int, evidence?: [turn ids or verbatim snippets], category?}}.
     * {@code sessions} may also sit at the top level. Items with identical documents share one.
     */
    public static List<EvalItem> jsonl(List<JsonNode> records) {
        List<EvalItem> items = new ArrayList<>();
        int n = 0;
        for (JsonNode r : records) {
            n++;
            JsonNode doc = r.has("document") ? r.get("document") : r;
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("title", doc.path("title").asString(r.path("title").asString("item " + n)));
            if (doc.has("sessions")) {
                document.put("sessions", JSON.treeToValue(doc.get("sessions"), List.class));
            } else if (doc.has("text")) {
                document.put("text", doc.get("text").asString());
            } else if (doc.has("path")) {
                // a whole book is named, not copied into every question's line
                document.put("text", readString(Path.of(doc.get("path").asString())));
            } else {
                throw new IllegalArgumentException("item " + n + ": document needs text, path or sessions");
            }
            if (!r.hasNonNull("question")) {
                throw new IllegalArgumentException("item " + n + ": question is missing");
            }
            List<String> answers = new ArrayList<>();
            JsonNode answer = r.path("answer");
            if (answer.isArray()) {
                answer.forEach(a -> answers.add(a.asString()));
            } else if (!answer.isMissingNode() && !answer.isNull()) {
                answers.add(answer.asString());
            }
            List<String> choices = new ArrayList<>();
            r.path("choices").forEach(c -> choices.add(c.asString()));
            Integer answerIndex =
                    r.hasNonNull("answerIndex") ? r.get("answerIndex").asInt() : null;
            if (answerIndex == null
                    && !choices.isEmpty()
                    && !answers.isEmpty()
                    && choices.contains(answers.getFirst())) {
                answerIndex = choices.indexOf(answers.getFirst());
            }
            List<String> evidence = new ArrayList<>();
            r.path("evidence").forEach(e -> evidence.add(e.asString()));
            String key = "jsonl/"
                    + Integer.toHexString(JSON.writeValueAsString(document).hashCode());
            items.add(new EvalItem(
                    r.path("id").asString("item-" + n),
                    "jsonl",
                    key,
                    document,
                    r.get("question").asString(),
                    answers,
                    choices,
                    answerIndex,
                    evidence,
                    r.path("category").asString("all")));
        }
        return items;
    }

    // ---- helpers ----

    static List<JsonNode> lines(Path path) {
        List<JsonNode> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(path)) {
                if (!line.isBlank()) {
                    out.add(JSON.readTree(line));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static JsonNode read(Path path) {
        return JSON.readTree(readString(path));
    }

    private static String readString(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
