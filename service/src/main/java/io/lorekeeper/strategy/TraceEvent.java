package io.lorekeeper.strategy;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.JsonTypeName;

/**
 * One thing a strategy or the question run did, as a typed record: what is stored as the trace,
 * streamed as server-sent events and published in the OpenAPI spec as a union discriminated by
 * {@code type}.
 *
 * <p>Each module declares its events as a sealed interface of records (the {@code gam} module's
 * {@code GamEvent}, the question run's {@code RunEvent}...), so that everything about a strategy,
 * its trace vocabulary included, lives in its own folder. This top type cannot itself be sealed:
 * on the class path a sealed type's permitted records must share its package, which would pull every
 * strategy's vocabulary into the SPI. {@code TraceVocabularyTest} closes the union instead: every
 * record implementing this interface belongs to a sealed family and has a unique name.
 *
 * <p>Names: {@link JsonTypeName} on every record, {@code family.event} in lower-case kebab words,
 * the family being the strategy ({@code gam.plan}, {@code memcot.zoom-in}, {@code comorag.probe}) or
 * a shared one ({@code run.status}, {@code step.failed}, {@code llm.truncated}).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
public interface TraceEvent {

    /** The event's {@code type}: its {@link JsonTypeName}. */
    static String typeOf(TraceEvent event) {
        return typeOf(event.getClass());
    }

    static String typeOf(Class<?> eventClass) {
        JsonTypeName name = eventClass.getAnnotation(JsonTypeName.class);
        if (name == null || name.value().isBlank()) {
            throw new IllegalArgumentException(eventClass.getName() + " has no @JsonTypeName");
        }
        return name.value();
    }
}
