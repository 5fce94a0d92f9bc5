package io.lorekeeper.platform;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingPathVariableException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.multipart.support.MissingServletRequestPartException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;

/**
 * Turns every refusal into RFC 9457 problem+json with the field at fault, and every unexpected
 * failure into a 500 problem that carries an incident id instead of a stack trace.
 */
@RestControllerAdvice
class ProblemResponses extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemResponses.class);
    static final String TYPE_BASE = "https://lorekeeper.io/problems/";
    private static final Pattern QUOTED_PARAMETER = Pattern.compile("Parameter \\[([^\\]]*)\\]");
    /** How Tomcat's multipart parser names a part in its messages ("field [title] exceeds ..."). */
    private static final Pattern OVERSIZE_FIELD = Pattern.compile("^The field ([\\w.-]+) exceeds its maximum");

    private static final Pattern NAMED_PART = Pattern.compile("\\b(?:field|part) \\[?'?([\\w.-]+)");

    @ExceptionHandler(ApiProblem.class)
    static ResponseEntity<ProblemDetail> apiProblem(ApiProblem problem) {
        HttpStatus status = statusOf(problem.kind());
        ProblemDetail body = problem(status, problem.type(), problem.title(), problem.getMessage());
        problem.properties().forEach(body::setProperty);
        if (problem.field() != null) {
            body.setProperty("field", problem.field());
            body.setProperty("errors", List.of(Map.of("field", problem.field(), "message", problem.getMessage())));
        }
        ResponseEntity.BodyBuilder response =
                ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        problem.headers().forEach((name, value) -> response.header(name, value));
        return response.body(body);
    }

    /** The status code of each kind of refusal: the one place a domain refusal becomes HTTP. */
    static HttpStatus statusOf(ApiProblem.Kind kind) {
        return switch (kind) {
            case INVALID -> HttpStatus.BAD_REQUEST;
            case FORBIDDEN -> HttpStatus.FORBIDDEN;
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case CONFLICT -> HttpStatus.CONFLICT;
            case TOO_LARGE -> HttpStatus.CONTENT_TOO_LARGE;
            case UNSUPPORTED_MEDIA_TYPE -> HttpStatus.UNSUPPORTED_MEDIA_TYPE;
            case TOO_MANY_REQUESTS -> HttpStatus.TOO_MANY_REQUESTS;
        };
    }

    /** The security firewall checks parameter names when they are first read, inside the handler. */
    @ExceptionHandler(org.springframework.security.web.firewall.RequestRejectedException.class)
    ResponseEntity<ProblemDetail> rejectedByFirewall(
            org.springframework.security.web.firewall.RequestRejectedException e) {
        return apiProblem(
                ApiProblem.invalid("query", "a query or form parameter name holds characters that are not accepted"));
    }

    /** A state change the aggregate's state does not allow: the request conflicts with where it stands now. */
    @ExceptionHandler(IllegalTransitionException.class)
    ResponseEntity<ProblemDetail> illegalTransition(IllegalTransitionException e) {
        ProblemDetail body = problem(
                HttpStatus.CONFLICT,
                "illegal-transition",
                e.aggregate() + " cannot " + e.transition() + " now",
                e.getMessage());
        body.setProperty("state", e.state());
        body.setProperty("allowedFrom", e.allowedFrom());
        return respond(HttpStatus.CONFLICT, body);
    }

    /** Another request or replica changed the same aggregate between our read and our write; nothing was written. */
    @ExceptionHandler(OptimisticLockingFailureException.class)
    ResponseEntity<ProblemDetail> concurrentUpdate(OptimisticLockingFailureException e) {
        return respond(
                HttpStatus.CONFLICT,
                problem(
                        HttpStatus.CONFLICT,
                        "concurrent-update",
                        "Changed concurrently",
                        "the resource was changed by another request while this one ran; read it again and retry"));
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ProblemDetail> typeMismatch(MethodArgumentTypeMismatchException e) {
        return apiProblem(ApiProblem.invalid(e.getName(), "'" + e.getValue() + "' is not a valid " + e.getName()));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e) {
        String incident = UUID.randomUUID().toString();
        log.error("Unhandled error, incident {}", incident, e);
        ProblemDetail body = problem(
                HttpStatus.INTERNAL_SERVER_ERROR,
                "internal-error",
                "Internal error",
                "The request failed on our side; quote incident " + incident + " when reporting it.");
        body.setProperty("incident", incident);
        return respond(HttpStatus.INTERNAL_SERVER_ERROR, body);
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(
            MethodArgumentNotValidException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<Map<String, String>> errors = ex.getBindingResult().getFieldErrors().stream()
                .map(this::describe)
                .toList();
        return invalidRequest(errors);
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(
            HandlerMethodValidationException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<Map<String, String>> errors = ex.getParameterValidationResults().stream()
                .flatMap(result -> result.getResolvableErrors().stream()
                        .map(error -> Map.of(
                                "field",
                                String.valueOf(result.getMethodParameter().getParameterName()),
                                "message",
                                String.valueOf(error.getDefaultMessage()))))
                .toList();
        return invalidRequest(errors);
    }

    /** A 400 naming every field that failed validation, the first one as {@code field} and in the detail. */
    private static ResponseEntity<Object> invalidRequest(List<Map<String, String>> errors) {
        ProblemDetail body = problem(
                HttpStatus.BAD_REQUEST,
                "invalid-request",
                "Invalid request",
                errors.isEmpty()
                        ? "The request is invalid"
                        : errors.getFirst().get("field") + ": "
                                + errors.getFirst().get("message"));
        if (!errors.isEmpty()) {
            body.setProperty("field", errors.getFirst().get("field"));
        }
        body.setProperty("errors", errors);
        return problemOf(respond(HttpStatus.BAD_REQUEST, body));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RequestSizeLimit.BodyTooLarge tooLarge) {
                return problemOf(respond(HttpStatus.CONTENT_TOO_LARGE, RequestSizeLimit.problem(tooLarge.maxBytes())));
            }
        }
        String field = null;
        String detail = "The request body is not valid JSON";
        if (ex.getCause() instanceof JacksonException jackson) {
            field = fieldOf(jackson);
            detail = "Malformed request body" + (field != null ? " at '" + field + "'" : "") + ": "
                    + jackson.getOriginalMessage();
        } else if (ex.getMessage() != null && ex.getMessage().contains("Required request body is missing")) {
            detail = "The request body is missing";
        }
        ProblemDetail body = problem(HttpStatus.BAD_REQUEST, "malformed-request", "Malformed request", detail);
        if (field != null) {
            body.setProperty("field", field);
            body.setProperty("errors", List.of(Map.of("field", field, "message", detail)));
        }
        return problemOf(respond(HttpStatus.BAD_REQUEST, body));
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestPart(
            MissingServletRequestPartException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return problemOf(apiProblem(ApiProblem.invalid(
                ex.getRequestPartName(),
                "The multipart request needs a part named '" + ex.getRequestPartName() + "'")));
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestParameter(
            MissingServletRequestParameterException ex,
            HttpHeaders headers,
            HttpStatusCode status,
            WebRequest request) {
        return problemOf(apiProblem(ApiProblem.invalid(
                ex.getParameterName(), "The query parameter '" + ex.getParameterName() + "' is required")));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(
            HttpMediaTypeNotSupportedException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail body = problem(
                HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                "unsupported-media-type",
                "Unsupported media type",
                "Content type " + ex.getContentType() + " is not supported; use " + ex.getSupportedMediaTypes());
        return ResponseEntity.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
                .headers(headers)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(body);
    }

    @Override
    protected ResponseEntity<Object> handleMaxUploadSizeExceededException(
            MaxUploadSizeExceededException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return problemOf(apiProblem(uploadLimit(ex.getMostSpecificCause())));
    }

    /**
     * Which limit of the multipart parser an upload hit, as a problem naming its own field: a part's
     * headers (where its file name is) longer than the server allows, one part over its size (Tomcat
     * names the field), or the request as a whole.
     */
    static ApiProblem uploadLimit(Throwable cause) {
        String message = String.valueOf(cause.getMessage());
        if (message.startsWith("Header section has more than")) {
            return ApiProblem.tooLarge(
                    "fileName", "a part's headers, its file name among them, are longer than the server accepts");
        }
        Matcher field = OVERSIZE_FIELD.matcher(message);
        if (field.find()) {
            return ApiProblem.tooLarge(field.group(1), "The " + field.group(1) + " part exceeds the size limit");
        }
        return ApiProblem.tooLarge("file", "The upload exceeds the size limit");
    }

    /** A blank path segment where an id belongs ({@code /v1/documents/%20}) converts to nothing, so it is "missing". */
    @Override
    protected ResponseEntity<Object> handleMissingPathVariable(
            MissingPathVariableException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (!ex.isMissingAfterConversion()) {
            // A handler whose mapping lacks the variable: our bug, not the client's.
            return problemOf(unexpected(ex));
        }
        return problemOf(
                apiProblem(ApiProblem.invalid(ex.getVariableName(), ex.getVariableName() + " must not be blank")));
    }

    /**
     * Tomcat refuses a query string it cannot decode ({@code ?page=%ZZ}), or one with too many
     * parameters, when the parameters are first read. Its message quotes the parameter's name.
     */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<ProblemDetail> undecodableParameters(InvalidParameterException e) {
        Matcher name = QUOTED_PARAMETER.matcher(String.valueOf(e.getMessage()));
        String field = name.find() ? name.group(1) : "query";
        return apiProblem(ApiProblem.invalid(field, "the query string cannot be read: " + e.getMessage()));
    }

    /**
     * A multipart body the container could not parse (a missing boundary, a truncated part, broken
     * part headers). The size refusals among them go to {@link #handleMaxUploadSizeExceededException}.
     */
    @ExceptionHandler(MultipartException.class)
    ResponseEntity<ProblemDetail> malformedMultipart(MultipartException e) {
        Throwable cause = e.getMostSpecificCause();
        String reason = cause == e || cause.getMessage() == null ? "" : ": " + cause.getMessage();
        ProblemDetail body = problem(
                HttpStatus.BAD_REQUEST,
                "malformed-request",
                "Malformed request",
                "The multipart/form-data body cannot be parsed" + reason);
        String field = partOf(cause);
        body.setProperty("field", field);
        body.setProperty("errors", List.of(Map.of("field", field, "message", String.valueOf(body.getDetail()))));
        return respond(HttpStatus.BAD_REQUEST, body);
    }

    /** The part a multipart parse error names, or the body as a whole when the parser stopped between parts. */
    private static String partOf(Throwable cause) {
        String message = cause.getMessage() == null ? "" : cause.getMessage();
        Matcher part = NAMED_PART.matcher(message);
        if (part.find()) {
            return part.group(1);
        }
        return message.contains("boundary") ? "Content-Type" : "body";
    }

    private Map<String, String> describe(FieldError error) {
        return Map.of("field", error.getField(), "message", String.valueOf(error.getDefaultMessage()));
    }

    /** The JSON path of a binding error, or where the parser stood when the JSON broke. */
    static String fieldOf(JacksonException e) {
        if (!e.getPath().isEmpty()) {
            StringBuilder path = new StringBuilder();
            for (JacksonException.Reference ref : e.getPath()) {
                if (ref.getPropertyName() != null) {
                    path.append(path.isEmpty() ? "" : ".").append(ref.getPropertyName());
                } else if (ref.getIndex() >= 0) {
                    path.append('[').append(ref.getIndex()).append(']');
                }
            }
            return path.isEmpty() ? null : path.toString();
        }
        if (e.processor() instanceof JsonParser parser && parser.streamReadContext() != null) {
            String pointer = parser.streamReadContext().pathAsPointer().toString();
            return pointer.isEmpty() ? null : pointerToPath(pointer);
        }
        return null;
    }

    private static String pointerToPath(String pointer) {
        StringBuilder path = new StringBuilder();
        for (String part : pointer.substring(1).split("/")) {
            if (part.chars().allMatch(Character::isDigit) && !part.isEmpty()) {
                path.append('[').append(part).append(']');
            } else {
                path.append(path.isEmpty() ? "" : ".")
                        .append(part.replace("~1", "/").replace("~0", "~"));
            }
        }
        return path.toString();
    }

    /**
     * Problem responses name their media type themselves, so that neither an Accept header the
     * client mangled nor an endpoint that produces only {@code text/event-stream} turns a 4xx into a
     * 406 or an empty body.
     */
    @Override
    protected ResponseEntity<Object> createResponseEntity(
            Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        ResponseEntity.BodyBuilder response = ResponseEntity.status(statusCode).headers(headers);
        if (body instanceof ProblemDetail problem) {
            response.contentType(MediaType.APPLICATION_PROBLEM_JSON);
            // the framework's own refusals (no such path, a method the path does not take) come untyped
            // ("about:blank"): typed like ours, so that clients tell problems apart by type alone
            if (problem.getType() == null
                    || "about:blank".equals(problem.getType().toString())) {
                problem.setType(URI.create(TYPE_BASE + frameworkType(statusCode.value())));
            }
        }
        return response.body(body);
    }

    private static String frameworkType(int status) {
        return switch (status) {
            case 400 -> "malformed-request";
            case 404 -> "not-found";
            case 405 -> "method-not-allowed";
            case 406 -> "not-acceptable";
            case 415 -> "unsupported-media-type";
            default -> "http-" + status;
        };
    }

    private static ResponseEntity<ProblemDetail> respond(HttpStatusCode status, ProblemDetail body) {
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(body);
    }

    private static ResponseEntity<Object> problemOf(ResponseEntity<ProblemDetail> problem) {
        return ResponseEntity.status(problem.getStatusCode())
                .headers(problem.getHeaders())
                .body(problem.getBody());
    }

    static ProblemDetail problem(HttpStatus status, String type, String title, String detail) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setType(URI.create(TYPE_BASE + type));
        body.setTitle(title);
        return body;
    }
}
