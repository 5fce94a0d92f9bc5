package io.lorekeeper.platform;

import java.io.IOException;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses request bodies that announce more bytes than any valid request can need, before they
 * are read into memory. The document limit applies to text after parsing; JSON escaping can
 * multiply its size, hence a separate, looser bound here.
 */
@Component
class RequestSizeLimit extends OncePerRequestFilter {

    private final long maxBytes;
    private final JsonMapper json;

    RequestSizeLimit(@Value("${lorekeeper.http.max-request-size:128MB}") DataSize maxRequestSize, JsonMapper json) {
        this.maxBytes = maxRequestSize.toBytes();
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > maxBytes) {
            ProblemDetail problem = ProblemResponses.problem(HttpStatus.CONTENT_TOO_LARGE, "too-large", "Content too large",
                    "the request body is larger than " + DataSize.ofBytes(maxBytes).toMegabytes() + " MB");
            problem.setProperty("field", "body");
            response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            json.writeValue(response.getOutputStream(), problem);
            return;
        }
        chain.doFilter(request, response);
    }
}
