package io.lorekeeper.platform;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;

import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

/**
 * A documented response that carries a {@code Location} header naming the resource to follow (the
 * 202 of every endpoint that queues work, and the 200 of those that may answer at once). The header
 * is declared here once instead of on every such endpoint; springdoc reads this as the
 * {@link ApiResponse} it is meta-annotated with.
 */
@Documented
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Repeatable(LocationResponse.List.class)
@ApiResponse(
        headers =
                @Header(
                        name = "Location",
                        description = ApiDocs.LOCATION_DESCRIPTION,
                        schema = @Schema(type = "string", format = "uri-reference")))
public @interface LocationResponse {

    /** The status code, as {@link ApiResponse#responseCode()}. */
    @AliasFor(annotation = ApiResponse.class, attribute = "responseCode")
    String code();

    /** What the response means, as {@link ApiResponse#description()}. */
    @AliasFor(annotation = ApiResponse.class, attribute = "description")
    String description();

    /** The container of repeated {@link LocationResponse}s (a 202 and a 200 on one endpoint). */
    @Documented
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @interface List {
        LocationResponse[] value();
    }
}
