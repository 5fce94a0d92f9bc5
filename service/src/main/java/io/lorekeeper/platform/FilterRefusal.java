package io.lorekeeper.platform;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a refusal made in a servlet filter, where no controller advice reaches, exactly as
 * {@link ProblemResponses} renders the same {@link ApiProblem} from a controller.
 */
public final class FilterRefusal {

    private FilterRefusal() {}

    public static void write(
            HttpServletRequest request, HttpServletResponse response, ApiProblem problem, JsonMapper json)
            throws IOException {
        ResponseEntity<ProblemDetail> entity = ProblemResponses.apiProblem(problem);
        ProblemDetail body = entity.getBody();
        body.setInstance(java.net.URI.create(request.getRequestURI()));
        response.setStatus(entity.getStatusCode().value());
        HttpHeaders headers = entity.getHeaders();
        headers.forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
        json.writeValue(response.getOutputStream(), body);
    }
}
