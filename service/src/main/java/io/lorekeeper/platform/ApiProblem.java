package io.lorekeeper.platform;

/**
 * A request the service refuses, rendered as RFC 9457 problem+json. {@code field} names the
 * request field at fault (a JSON pointer-like path such as {@code sessions[2].turns[0].text}) so a
 * client can show the error next to the input that caused it.
 *
 * <p>It carries what kind of refusal it is, not an HTTP status: it is also thrown where no request
 * is in sight (an answer job finding its document deleted), and only the web edge
 * ({@link ProblemResponses}) turns the kind into a status code.
 */
public class ApiProblem extends RuntimeException implements Failures.Readable {

    /** What kind of refusal: the web edge maps each to its status code. */
    public enum Kind {
        INVALID,
        FORBIDDEN,
        NOT_FOUND,
        CONFLICT,
        TOO_LARGE,
        UNSUPPORTED_MEDIA_TYPE,
        TOO_MANY_REQUESTS
    }

    private final Kind kind;
    private final String type;
    private final String title;
    private final String field;
    private final java.util.Map<String, Object> properties = new java.util.LinkedHashMap<>();
    private final java.util.Map<String, String> headers = new java.util.LinkedHashMap<>();

    public ApiProblem(Kind kind, String type, String title, String detail, String field) {
        super(detail);
        this.kind = kind;
        this.type = type;
        this.title = title;
        this.field = field;
    }

    public static ApiProblem invalid(String field, String detail) {
        return new ApiProblem(Kind.INVALID, "invalid-request", "Invalid request", detail, field);
    }

    public static ApiProblem notFound(String what, Object id) {
        return new ApiProblem(
                Kind.NOT_FOUND, "not-found", what + " not found", what + " " + id + " does not exist", null);
    }

    public static ApiProblem conflict(String type, String title, String detail, String field) {
        return new ApiProblem(Kind.CONFLICT, type, title, detail, field);
    }

    public static ApiProblem tooLarge(String field, String detail) {
        return new ApiProblem(Kind.TOO_LARGE, "too-large", "Content too large", detail, field);
    }

    public static ApiProblem unsupportedMediaType(String field, String detail) {
        return new ApiProblem(
                Kind.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", "Unsupported media type", detail, field);
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

    public Kind kind() {
        return kind;
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
