package io.lorekeeper.platform;

/**
 * Names the controllers use to document the shared parts of the API contract, defined once in
 * {@link OpenApiInfo}: the error responses (all {@code application/problem+json} with the
 * {@code Problem} schema) and the headers.
 */
public final class ApiDocs {

    public static final String PROBLEM_JSON = "application/problem+json";
    public static final String JSON = "application/json";

    /** References for {@code @ApiResponse(ref = ...)}. */
    public static final String BAD_REQUEST = "#/components/responses/" + Responses.BAD_REQUEST;

    public static final String NOT_FOUND = "#/components/responses/" + Responses.NOT_FOUND;
    public static final String CONFLICT = "#/components/responses/" + Responses.CONFLICT;
    public static final String CONTENT_TOO_LARGE = "#/components/responses/" + Responses.CONTENT_TOO_LARGE;
    public static final String UNSUPPORTED_MEDIA_TYPE = "#/components/responses/" + Responses.UNSUPPORTED_MEDIA_TYPE;

    public static final String LOCATION_DESCRIPTION = "Where to follow the resource (poll it with GET)";

    private ApiDocs() {}

    static final class Responses {
        static final String BAD_REQUEST = "BadRequest";
        static final String NOT_FOUND = "NotFound";
        static final String CONFLICT = "Conflict";
        static final String CONTENT_TOO_LARGE = "ContentTooLarge";
        static final String UNSUPPORTED_MEDIA_TYPE = "UnsupportedMediaType";

        private Responses() {}
    }
}
