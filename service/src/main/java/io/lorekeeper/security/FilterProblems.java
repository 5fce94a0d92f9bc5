package io.lorekeeper.security;

import java.io.IOException;
import java.net.URI;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

/**
 * Problem+json for refusals made before a controller runs (no key, a bad key, not allowed, too
 * many requests), in the shape the controllers' problems have. A presented key appears only masked.
 */
@Component
class FilterProblems implements AuthenticationEntryPoint, AccessDeniedHandler, RequestRejectedHandler {

    private static final String TYPE_BASE = "https://lorekeeper.io/problems/";

    private final JsonMapper json;

    FilterProblems(JsonMapper json) {
        this.json = json;
    }

    /** 401: no key, or one that is unknown or revoked. */
    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException failure)
            throws IOException {
        boolean presented = ApiKeyFilter.presentedKey(request) != null;
        response.setHeader(
                "WWW-Authenticate",
                presented ? "Bearer realm=\"lorekeeper\", error=\"invalid_token\"" : "Bearer realm=\"lorekeeper\"");
        String detail =
                presented && failure instanceof org.springframework.security.authentication.BadCredentialsException
                        ? failure.getMessage()
                        : "this endpoint needs an API key: send it as `Authorization: Bearer <key>` or in the `X-API-Key` header";
        write(response, HttpStatus.UNAUTHORIZED, "unauthorized", "Unauthorized", detail, Map.of());
    }

    /** 403: a valid key that may not do this (a tenant's key on the admin API, or an evaluation without the permission). */
    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException denied)
            throws IOException {
        String detail = request.getRequestURI().startsWith("/v1/evaluations")
                ? "starting an evaluation needs the admin key or a key created with canEvaluate"
                : "this operation needs the admin key";
        write(response, HttpStatus.FORBIDDEN, "forbidden", "Forbidden", detail, Map.of());
    }

    /** 400: a path or header the firewall refuses (encoded separators, `..`, control characters). */
    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException rejected)
            throws IOException {
        write(
                response,
                HttpStatus.BAD_REQUEST,
                "malformed-request",
                "Malformed request",
                // Not the firewall's message: it may quote a rejected header's value, and that may be a key.
                "the request path or a header holds characters or sequences that are not accepted (encoded separators, "
                        + "`..`, `;`, control characters)",
                Map.of("field", "path"));
    }

    void write(
            HttpServletResponse response,
            HttpStatus status,
            String type,
            String title,
            String detail,
            Map<String, Object> members)
            throws IOException {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setType(URI.create(TYPE_BASE + type));
        body.setTitle(title);
        members.forEach(body::setProperty);
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getOutputStream().write(json.writeValueAsBytes(body));
    }
}
