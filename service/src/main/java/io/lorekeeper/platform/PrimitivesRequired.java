package io.lorekeeper.platform;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Iterator;

import org.springframework.stereotype.Component;

import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.core.converter.ModelConverterContext;
import io.swagger.v3.oas.models.media.Schema;

/**
 * Marks a record's primitive components required in the published schemas: they are always
 * written (a primitive cannot be null or left out), so generated clients should not make them
 * optional. Other always-present members say so with {@code requiredMode = REQUIRED}.
 */
@Component
class PrimitivesRequired implements ModelConverter {

    @Override
    public Schema<?> resolve(AnnotatedType type, ModelConverterContext context, Iterator<ModelConverter> chain) {
        Schema<?> schema = chain.hasNext() ? chain.next().resolve(type, context, chain) : null;
        if (schema == null || type.getType() == null) {
            return schema;
        }
        Class<?> raw = rawClass(type.getType());
        if (raw == null || !raw.isRecord()) {
            return schema;
        }
        Schema<?> model = schema;
        if (schema.get$ref() != null) {
            String name = schema.get$ref().substring(schema.get$ref().lastIndexOf('/') + 1);
            model = context.getDefinedModels().get(name);
        }
        if (model == null || model.getProperties() == null) {
            return schema;
        }
        for (RecordComponent component : raw.getRecordComponents()) {
            boolean present = model.getProperties().containsKey(component.getName());
            boolean listed = model.getRequired() != null && model.getRequired().contains(component.getName());
            if (component.getType().isPrimitive() && present && !listed) {
                model.addRequiredItem(component.getName());
            }
        }
        return schema;
    }

    /** Swagger hands over a Class, a ParameterizedType, or its own Jackson 2 type (read reflectively: not on our class path). */
    private static Class<?> rawClass(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) {
            return c;
        }
        try {
            return type.getClass().getMethod("getRawClass").invoke(type) instanceof Class<?> c ? c : null;
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }
}
