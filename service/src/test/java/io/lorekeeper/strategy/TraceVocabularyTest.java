package io.lorekeeper.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Closes the union of trace events that {@link TraceEvent} cannot close itself: every event is a
 * record in a sealed family, named once, by the one convention.
 */
class TraceVocabularyTest {

    private static final Pattern NAME = Pattern.compile("[a-z]+(-[a-z]+)*\\.[a-z]+(-[a-z]+)*");

    static List<Class<?>> events() {
        List<Class<?>> events = new ArrayList<>();
        for (JavaClass type : new ClassFileImporter()
                .withImportOption(location -> !location.contains("/test-classes/"))
                .importPackages("io.lorekeeper")) {
            if (type.isAssignableTo(TraceEvent.class) && !type.isInterface()) {
                events.add(type.reflect());
            }
        }
        return events;
    }

    @Test
    void everyEventIsARecordOfASealedFamilyWithAUniqueConventionalName() {
        List<Class<?>> events = events();
        assertThat(events).contains(StepEvent.Failed.class, StepEvent.BudgetSpent.class);
        Map<String, Class<?>> byName = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (Class<?> event : events) {
            if (!event.isRecord()) {
                problems.add(event.getName() + " is not a record");
            }
            boolean inSealedFamily = false;
            for (Class<?> family : event.getInterfaces()) {
                inSealedFamily |= family.isSealed() && TraceEvent.class.isAssignableFrom(family);
            }
            if (!inSealedFamily) {
                problems.add(event.getName() + " does not implement a sealed family of TraceEvent");
            }
            String name;
            try {
                name = TraceEvent.typeOf(event);
            } catch (IllegalArgumentException missing) {
                problems.add(missing.getMessage());
                continue;
            }
            if (!NAME.matcher(name).matches()) {
                problems.add(event.getName() + " is named '" + name + "', not family.event in kebab-case");
            }
            Class<?> earlier = byName.put(name, event);
            if (earlier != null) {
                problems.add("'" + name + "' names both " + earlier.getName() + " and " + event.getName());
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void anEventIsWrittenWithItsTypeAndOnlyTheFieldsItHas() {
        JsonMapper json = JsonMapper.builder().build();
        JsonNode written = json.readTree(
                json.writerFor(TraceEvent.class).writeValueAsString(new StepEvent.Failed("answer", "not JSON")));
        assertThat(written.get("type").asString()).isEqualTo("step.failed");
        assertThat(written.get("step").asString()).isEqualTo("answer");
        assertThat(written.get("reason").asString()).isEqualTo("not JSON");
        assertThat(written.has("round")).isFalse();
    }
}
