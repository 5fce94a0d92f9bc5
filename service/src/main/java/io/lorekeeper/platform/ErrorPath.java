package io.lorekeeper.platform;

import java.net.URI;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.swagger.v3.oas.annotations.Hidden;

/**
 * The error page the servlet container forwards to when an error is raised outside Spring MVC's
 * exception handling: a chunked body whose framing breaks while it is read, a method the container
 * refuses ({@code TRACE}), a path it guards ({@code /WEB-INF/}). It replaces Spring Boot's
 * {@code BasicErrorController}, whose JSON is not a problem, so that these answers look like every
 * other one.
 */
@Hidden // not an operation of the API: where the container sends its errors
@RestController
class ErrorPath implements ErrorController {

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status = code == null
                ? HttpStatus.NOT_FOUND // asked for directly: there is no such resource
                : code instanceof Integer c && HttpStatus.resolve(c) instanceof HttpStatus known
                        ? known
                        : HttpStatus.INTERNAL_SERVER_ERROR;
        String type = switch (status) {
            case BAD_REQUEST -> "malformed-request";
            case NOT_FOUND -> "not-found";
            case INTERNAL_SERVER_ERROR -> "internal-error";
            default -> "http-" + status.value();
        };
        // The container's own message can quote internals (class names, parser state); the status says enough.
        String detail = status == HttpStatus.BAD_REQUEST
                ? "The request body cannot be read: its framing or encoding is broken"
                : status.getReasonPhrase();
        ProblemDetail problem = ProblemResponses.problem(status, type, status.getReasonPhrase(), detail);
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        if (uri instanceof String path) {
            try {
                problem.setInstance(URI.create(path));
            } catch (IllegalArgumentException notAUri) {
                // The path that failed may itself be what was malformed; the problem stands without it.
            }
        }
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }
}
