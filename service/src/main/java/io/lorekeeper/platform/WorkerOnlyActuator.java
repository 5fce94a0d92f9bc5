package io.lorekeeper.platform;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import tools.jackson.databind.json.JsonMapper;

/**
 * A worker keeps its HTTP port for the actuator (Kubernetes probes, Prometheus) and answers
 * everything else with 404: a worker that served /v1 by accident (a Service selecting it, a
 * port-forward) would take requests on the CPU its jobs need, and its answers would bypass the
 * api's autoscaling signal.
 */
@Component
@ConditionalOnProperty(name = ProcessRole.PROPERTY, havingValue = "worker")
class WorkerOnlyActuator extends OncePerRequestFilter {

    private final JsonMapper json;

    WorkerOnlyActuator(JsonMapper json) {
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (path.equals("/actuator") || path.startsWith("/actuator/")) {
            chain.doFilter(request, response);
            return;
        }
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                HttpStatus.NOT_FOUND,
                "this process runs the worker role: it executes jobs and serves only /actuator; send API requests to the api");
        problem.setTitle("Not served by a worker");
        problem.setProperty("role", ProcessRole.WORKER.toString());
        response.setStatus(HttpStatus.NOT_FOUND.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        json.writeValue(response.getOutputStream(), problem);
    }
}
