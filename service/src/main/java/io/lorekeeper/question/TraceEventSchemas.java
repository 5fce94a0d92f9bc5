package io.lorekeeper.question;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.type.filter.AssignableTypeFilter;
import org.springframework.stereotype.Component;
import org.springframework.util.ClassUtils;

import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.core.converter.ResolvedSchema;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.media.Discriminator;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;

/**
 * Publishes a trace event's {@code payload} as what it is: one of the event records, told apart by
 * {@code type}. {@link TraceEvent} cannot be sealed (each strategy module owns its records), so the
 * union is found where the service runs: every concrete record under {@code io.lorekeeper} that
 * implements it, each as a schema of its own (named by its {@code @Schema}), gathered in a
 * {@code oneOf} with a discriminator mapping each {@code type} to its schema. A module adding events
 * needs nothing here.
 */
@Component
class TraceEventSchemas implements OpenApiCustomizer {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(TraceEventSchemas.class);

    static final String PAYLOAD = "TraceEventPayload";
    static final String PAYLOAD_REF = "#/components/schemas/" + PAYLOAD;
    private static final String BASE_PACKAGE = "io.lorekeeper";
    private static final String TYPE = "type";

    @Override
    public void customise(OpenAPI api) {
        Components components = api.getComponents() == null ? new Components() : api.getComponents();
        api.setComponents(components);
        ModelConverters converters = ModelConverters.getInstance(api.getSpecVersion() == SpecVersion.V31);
        Map<String, String> mapping = new LinkedHashMap<>();
        List<Schema> members = new ArrayList<>();
        for (Class<?> event : eventRecords()) {
            String ref = addSchema(components, converters, event);
            mapping.put(TraceEvent.typeOf(event), ref);
            members.add(new Schema<>().$ref(ref));
        }
        Schema<Object> union = new Schema<>()
                .description("A trace event's record, told apart by `type` (`family.event`)")
                .oneOf(members)
                .discriminator(new Discriminator().propertyName(TYPE).mapping(mapping));
        components.addSchemas(PAYLOAD, union);
    }

    /** Every concrete record implementing {@link TraceEvent}, ordered by type so that the spec is stable. */
    static List<Class<?>> eventRecords() {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AssignableTypeFilter(TraceEvent.class));
        return scanner.findCandidateComponents(BASE_PACKAGE).stream()
                .map(found -> (Class<?>)
                        ClassUtils.resolveClassName(found.getBeanClassName(), TraceEventSchemas.class.getClassLoader()))
                .filter(Class::isRecord)
                .sorted(Comparator.comparing((Class<?> event) -> TraceEvent.typeOf(event)))
                .<Class<?>>map(event -> event)
                .toList();
    }

    /** The record's schema and those it refers to, as components; the record's schema carries its {@code type}. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static String addSchema(Components components, ModelConverters converters, Class<?> event) {
        ResolvedSchema resolved = converters.resolveAsResolvedSchema(new AnnotatedType(event).resolveAsRef(false));
        if (resolved.referencedSchemas != null) {
            resolved.referencedSchemas.forEach((name, schema) -> {
                Schema<?> earlier = components.getSchemas() == null
                        ? null
                        : components.getSchemas().get(name);
                if (earlier == null) {
                    components.addSchemas(name, schema);
                } else if (!earlier.equals(schema)) {
                    // the first stays; a type of another module that happens to share the name needs its own
                    log.warn(
                            "Two schemas are named {} (one used by {}); give one a unique @Schema(name)",
                            name,
                            event.getName());
                }
            });
        }
        Schema schema = resolved.schema;
        String name = schema.getName() != null
                ? schema.getName()
                : event.getName().substring(event.getPackageName().length() + 1).replace('$', '.');
        schema.setDiscriminator(null);
        Map<String, Schema> properties = new LinkedHashMap<>();
        // one value: a client that tries each member of the union in turn (as generated Java clients do)
        // matches only the record named by the type
        properties.put(
                TYPE,
                new StringSchema()
                        ._enum(List.of(TraceEvent.typeOf(event)))
                        .description("The event's name, always `" + TraceEvent.typeOf(event) + "`"));
        if (schema.getProperties() != null) {
            ((Map<String, Schema>) schema.getProperties()).forEach((k, v) -> {
                if (!k.equals(TYPE)) {
                    properties.put(k, v);
                }
            });
        }
        schema.setProperties(properties);
        List<String> required = new ArrayList<>(List.of(TYPE));
        if (schema.getRequired() != null) {
            ((List<String>) schema.getRequired())
                    .stream().filter(r -> !r.equals(TYPE)).forEach(required::add);
        }
        schema.setRequired(required);
        components.addSchemas(name, schema);
        return "#/components/schemas/" + name;
    }
}
