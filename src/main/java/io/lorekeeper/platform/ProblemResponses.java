package io.lorekeeper.platform;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
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

    @ExceptionHandler(ApiProblem.class)
    ResponseEntity<ProblemDetail> apiProblem(ApiProblem problem) {
        ProblemDetail body = problem(problem.status(), problem.type(), problem.title(), problem.getMessage());
        problem.properties().forEach(body::setProperty);
        if (problem.field() != null) {
            body.setProperty("field", problem.field());
            body.setProperty("errors", List.of(Map.of("field", problem.field(), "message", problem.getMessage())));
        }
        return ResponseEntity.status(problem.status()).body(body);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ProblemDetail> typeMismatch(MethodArgumentTypeMismatchException e) {
        return apiProblem(ApiProblem.invalid(e.getName(), "'" + e.getValue() + "' is not a valid " + e.getName()));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e) {
        String incident = UUID.randomUUID().toString();
        log.error("Unhandled error, incident {}", incident, e);
        ProblemDetail body = problem(HttpStatus.INTERNAL_SERVER_ERROR, "internal-error", "Internal error",
                "The request failed on our side; quote incident " + incident + " when reporting it.");
        body.setProperty("incident", incident);
        return ResponseEntity.internalServerError().body(body);
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<Map<String, String>> errors = ex.getBindingResult().getFieldErrors().stream()
                .map(this::describe).toList();
        ProblemDetail body = problem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
                errors.isEmpty() ? "The request is invalid" : errors.getFirst().get("field") + ": " + errors.getFirst().get("message"));
        if (!errors.isEmpty()) {
            body.setProperty("field", errors.getFirst().get("field"));
        }
        body.setProperty("errors", errors);
        return ResponseEntity.badRequest().body(body);
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<Map<String, String>> errors = ex.getParameterValidationResults().stream()
                .flatMap(result -> result.getResolvableErrors().stream()
                        .map(error -> Map.of("field", String.valueOf(result.getMethodParameter().getParameterName()),
                                "message", String.valueOf(error.getDefaultMessage()))))
                .toList();
        ProblemDetail body = problem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
                errors.isEmpty() ? "The request is invalid" : errors.getFirst().get("field") + ": " + errors.getFirst().get("message"));
        if (!errors.isEmpty()) {
            body.setProperty("field", errors.getFirst().get("field"));
        }
        body.setProperty("errors", errors);
        return ResponseEntity.badRequest().body(body);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        String field = null;
        String detail = "The request body is not valid JSON";
        if (ex.getCause() instanceof JacksonException jackson) {
            field = fieldOf(jackson);
            detail = "Malformed request body" + (field != null ? " at '" + field + "'" : "") + ": " + jackson.getOriginalMessage();
        } else if (ex.getMessage() != null && ex.getMessage().contains("Required request body is missing")) {
            detail = "The request body is missing";
        }
        ProblemDetail body = problem(HttpStatus.BAD_REQUEST, "malformed-request", "Malformed request", detail);
        if (field != null) {
            body.setProperty("field", field);
            body.setProperty("errors", List.of(Map.of("field", field, "message", detail)));
        }
        return ResponseEntity.badRequest().body(body);
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestPart(MissingServletRequestPartException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return ResponseEntity.badRequest().body(apiProblem(ApiProblem.invalid(ex.getRequestPartName(),
                "The multipart request needs a part named '" + ex.getRequestPartName() + "'")).getBody());
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestParameter(MissingServletRequestParameterException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return ResponseEntity.badRequest().body(apiProblem(ApiProblem.invalid(ex.getParameterName(),
                "The query parameter '" + ex.getParameterName() + "' is required")).getBody());
    }

    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(HttpMediaTypeNotSupportedException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail body = problem(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type",
                "Unsupported media type", "Content type " + ex.getContentType() + " is not supported; use "
                        + ex.getSupportedMediaTypes());
        return ResponseEntity.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE).headers(headers).body(body);
    }

    @Override
    protected ResponseEntity<Object> handleMaxUploadSizeExceededException(MaxUploadSizeExceededException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).body(
                apiProblem(ApiProblem.tooLarge("file", "The upload exceeds the size limit")).getBody());
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
                path.append(path.isEmpty() ? "" : ".").append(part.replace("~1", "/").replace("~0", "~"));
            }
        }
        return path.toString();
    }

    static ProblemDetail problem(HttpStatus status, String type, String title, String detail) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setType(URI.create(TYPE_BASE + type));
        body.setTitle(title);
        return body;
    }
}
