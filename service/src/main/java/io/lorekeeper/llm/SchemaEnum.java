package io.lorekeeper.llm;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The values a string field of a reply record may take, written into the JSON schema sent to the
 * model (an {@code enum}), so that structured output keeps the model to them. It is not a
 * validation constraint: the code that reads the field still decides what to do with a value
 * outside the set (reject and count it, say), since not every server enforces the schema.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({
    ElementType.TYPE_USE,
    ElementType.RECORD_COMPONENT,
    ElementType.FIELD,
    ElementType.PARAMETER,
    ElementType.METHOD
})
public @interface SchemaEnum {
    String[] value();
}
