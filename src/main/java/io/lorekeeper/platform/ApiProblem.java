package io.lorekeeper.platform;

import org.springframework.http.HttpStatus;

/**
 * A request the service refuses, rendered as RFC 9457 problem+json. {@code field} names the
 * request field at fault (a JSON pointer-like path such as {@code sessions[2].turns[0].text}) so a
 * client can show the error next to the input that caused it.
 */
public class ApiProblem extends RuntimeException implements Failures.Readable {

    private final HttpStatus status;
    private final String type;
    private final String title;
    private final String field;
    private final java.util.Map<String, Object> properties = new java.util.LinkedHashMap<>();
    private final java.util.Map<String, String> headers = new java.util.LinkedHashMap<>();

    public ApiProblem(HttpStatus status, String type, String title, String detail, String field) {
        super(detail);
        this.status = status;
        this.type = type;
        this.title = title;
        this.field = field;
    }

    public static ApiProblem invalid(String field, String detail) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", detail, field);
    }

    public static ApiProblem notFound(String what, Object id) {
        return new ApiProblem(
                HttpStatus.NOT_FOUND, "not-found", what + " not found", what + " " + id + " does not exist", null);
    }

    public static ApiProblem conflict(String type, String title, String detail, String field) {
        return new ApiProblem(HttpStatus.CONFLICT, type, title, detail, field);
    }

    public static ApiProblem tooLarge(String field, String detail) {
        return new ApiProblem(HttpStatus.CONTENT_TOO_LARGE, "too-large", "Content too large", detail, field);
    }

    public static ApiProblem unsupportedMediaType(String field, String detail) {
        return new ApiProblem(
                HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", "Unsupported media type", detail, field);
    }

    /** Adds a member to the problem body beside type, title, detail and field (RFC 9457 extension members). */
    public ApiProblem with(String name, Object value) {
        properties.put(name, value);
        return this;
    }

    /** Adds a response header (such as {@code Retry-After}) to the problem response. */
    public ApiProblem header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    public java.util.Map<String, String> headers() {
        return java.util.Collections.unmodifiableMap(headers);
    }

    public java.util.Map<String, Object> properties() {
        return java.util.Collections.unmodifiableMap(properties);
    }

    public HttpStatus status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String title() {
        return title;
    }

    public String field() {
        return field;
    }
}
