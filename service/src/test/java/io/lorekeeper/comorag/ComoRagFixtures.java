package io.lorekeeper.comorag;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A synthetic chronicle long enough for ComoRAG's layers to have many items, and scripted index builders. */
final class ComoRagFixtures {

    static final List<String> STAGES = List.of("veridical", "triples", "semantic", "episodic");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern LIVES = Pattern.compile("(\\p{Lu}\\p{L}+) lives in (\\p{Lu}\\p{L}+)");
    private static final Pattern FIRST_PASSAGE =
            Pattern.compile("<passage n=\"1\">\\n(.*?)\\n</passage>", Pattern.DOTALL);
    private static final Pattern PASSAGE = Pattern.compile("<passage>\\n(.*?)\\n</passage>", Pattern.DOTALL);

    static final String[] NAMES = {
        "Adela",
        "Bartholomew",
        "Cordelia",
        "Desmond",
        "Evangeline",
        "Fitzgerald",
        "Genevieve",
        "Horatio",
        "Isadora",
        "Jasper",
        "Katarina",
        "Leopold",
        "Marguerite",
        "Nathaniel",
        "Ophelia",
        "Percival"
    };
    private static final String[] PLACES = {
        "Ashford",
        "Blackmere",
        "Carrow",
        "Dunmore",
        "Elderwick",
        "Fallowmead",
        "Greystone",
        "Harrowgate",
        "Ivybridge",
        "Juniper Hollow",
        "Kestrel Point",
        "Lindenfield",
        "Marlow",
        "Northwold",
        "Oakhaven",
        "Penhallow"
    };
    private static final String[] CRAFTS = {
        "clockmaker",
        "glassblower",
        "cartographer",
        "beekeeper",
        "bookbinder",
        "shipwright",
        "apothecary",
        "falconer",
        "stonemason",
        "weaver",
        "luthier",
        "astronomer",
        "vintner",
        "locksmith",
        "herbalist",
        "printer"
    };
    private static final String[] OBJECTS = {
        "a brass compass",
        "a blue lantern",
        "a silver key",
        "a torn map",
        "a wax seal",
        "an iron ring",
        "a cedar box",
        "a glass eye",
        "a locked diary",
        "a copper bell",
        "a green ribbon",
        "a bone whistle",
        "a painted fan",
        "a pewter cup",
        "a velvet glove",
        "a cracked mirror"
    };

    private ComoRagFixtures() {}

    /** Sixteen chapters of about 500 tokens, each about one person of the chronicle, in order. */
    static String chronicle() {
        return chronicle(NAMES.length);
    }

    /** The first {@code chapters} chapters. */
    static String chronicle(int chapters) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < chapters; i++) {
            out.append(chapter(i)).append("\n\n");
        }
        return out.toString().strip();
    }

    static String chapter(int i) {
        String name = NAMES[i];
        String place = PLACES[i];
        String craft = CRAFTS[i];
        String object = OBJECTS[i];
        String next = NAMES[(i + 1) % NAMES.length];
        String previous = NAMES[(i + NAMES.length - 1) % NAMES.length];
        List<String> s = new ArrayList<>();
        s.add(name + " lives in " + place + " and works as a " + craft + ".");
        s.add("Every morning " + name + " opens the workshop near the market square of " + place
                + " before the bells ring.");
        s.add("The people of " + place + " say that no " + craft + " in the county is more patient than " + name + ".");
        s.add("In the winter of the great frost, " + name + " found " + object
                + " buried under the snow by the old mill.");
        s.add(name + " kept " + object + " hidden in a drawer and told nobody about it for many months.");
        s.add("A letter from " + previous
                + " arrived one evening, asking whether anything strange had been found near the mill.");
        s.add(name + " did not answer the letter at once, because the handwriting looked hurried and afraid.");
        s.add("Later that spring, " + name
                + " walked to the river crossing and watched the barges carry timber downstream.");
        s.add("On the road back, a stranger in a grey coat asked " + name + " about the workshop and about the frost.");
        s.add(name + " answered politely but said nothing of " + object
                + ", and the stranger went away towards the hills.");
        s.add("In the summer, " + name + " taught two apprentices the trade of the " + craft
                + " and praised their steady hands.");
        s.add("The apprentices noticed that " + name + " often looked at the drawer where " + object + " was kept.");
        s.add("When autumn came, " + name + " finally decided to travel and to show " + object + " to " + next + ".");
        s.add("The journey took four days through forests, fields and small villages where travellers shared bread.");
        s.add("At the end of the journey " + name + " gave " + object + " to " + next
                + ", who recognised it immediately.");
        s.add(next + " explained that it had belonged to a family that once ruled the valley before the great frost.");
        s.add(name + " returned home to " + place
                + " and wrote down the whole story in a notebook bound in red leather.");
        s.add("Years afterwards the notebook of " + name + " was read aloud at the harvest festival of " + place + ".");
        s.add("Children of " + place + " still play a game in which one of them hides " + object
                + " and the others search.");
        s.add("Nobody in " + place + " ever learned who the stranger in the grey coat had been, though many guessed.");
        s.add(
                "Some believed he was a collector of old things, and others thought he was a messenger of the ruling family.");
        s.add(name + " never spoke of him again, but kept a lamp burning in the window of the workshop every night.");
        return String.join(" ", s);
    }

    /** Scripts the index builders: the entities and one fact per unit, and summaries that are long enough to fill a small share. */
    static void scriptIndex(ScriptedChatModel model) {
        model.on("comorag/ner").reply(call -> {
            Matcher lives = LIVES.matcher(group(PASSAGE, call.user()));
            List<String> entities = new ArrayList<>();
            while (lives.find()) {
                entities.add(lives.group(1));
                entities.add(lives.group(2));
            }
            return json(Map.of("entities", entities));
        });
        model.on("comorag/triples").reply(call -> {
            String unit = group(PASSAGE, call.user());
            Matcher lives = LIVES.matcher(unit);
            List<String> entities = new ArrayList<>();
            List<Map<String, String>> triples = new ArrayList<>();
            while (lives.find()) {
                entities.add(lives.group(1));
                entities.add(lives.group(2));
                triples.add(Map.of("subject", lives.group(1), "predicate", "lives in", "object", lives.group(2)));
            }
            return json(Map.of("entities", entities, "triples", triples));
        });
        model.on("comorag/semantic-summary")
                .reply(call -> json(Map.of(
                        "summary", "Theme: " + firstSentence(group(FIRST_PASSAGE, call.user())) + " " + filler())));
        model.on("comorag/episodic-summary")
                .reply(call -> json(Map.of(
                        "summary", "Plot: " + firstSentence(group(FIRST_PASSAGE, call.user())) + " " + filler())));
    }

    /** About 95 tokens, so that a summary takes more than half of a 153-token layer share. */
    private static String filler() {
        return "The passages go on to describe the seasons, the journeys on foot, the letters exchanged between neighbours, "
                + "the workshop routines, the apprentices and their lessons, the festival where old stories are read aloud, "
                + "and the lasting mystery of the stranger in the grey coat who asked questions and left towards the hills. "
                + "They also mention the bells of the market square, the barges on the river and the lamp in the window.";
    }

    static String firstSentence(String text) {
        int end = text.indexOf(". ");
        return end < 0 ? text.strip() : text.substring(0, end + 1).strip();
    }

    /** Ingests a text and builds ComoRAG's index for it by naming its stages in a reindex request; waits until they are done. */
    static UUID ingestWithIndex(Api api, Object document) {
        UUID id = api.ingest(document);
        buildIndex(api, id);
        return id;
    }

    static void buildIndex(Api api, UUID id) {
        Api.Response response = api.post("/v1/documents/" + id + "/reindex", Map.of("stages", STAGES));
        if (response.status() != 202) {
            throw new AssertionError("reindex refused: " + response.body());
        }
        awaitStages(api, id, "DONE");
    }

    /** Waits until every index stage has {@code status}; fails early if one ends otherwise. */
    static JsonNode awaitStages(Api api, UUID id, String status) {
        long deadline = System.nanoTime() + Duration.ofMinutes(20).toNanos();
        JsonNode doc = null;
        while (System.nanoTime() < deadline) {
            doc = api.get("/v1/documents/" + id).json();
            boolean all = true;
            for (JsonNode stage : doc.get("stages")) {
                if (STAGES.contains(stage.get("name").asString())) {
                    String s = stage.get("status").asString();
                    if (!s.equals(status)) {
                        all = false;
                        if ((s.equals("FAILED") || s.equals("SKIPPED")) && !status.equals(s)) {
                            throw new AssertionError("stage " + stage.get("name") + " ended " + s
                                    + " while waiting for " + status + ": " + doc);
                        }
                    }
                }
            }
            if (all
                    && !doc.get("status").asString().equals("QUEUED")
                    && !doc.get("status").asString().equals("INGESTING")) {
                return doc;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("index stages not " + status + " in time: " + doc);
    }

    static String json(Object value) {
        return JSON.writeValueAsString(value);
    }

    static String group(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text == null ? "" : text);
        return m.find() ? m.group(1) : "";
    }
}
