package io.lorekeeper.platform;

import java.io.IOException;
import java.io.OutputStream;

import org.apache.catalina.Container;
import org.apache.catalina.Host;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

/**
 * Problem+json for the requests Tomcat refuses before any servlet runs: a request line or header it
 * cannot parse, a path with an encoded NUL, slash or malformed UTF-8, a path that climbs above the
 * root, a method it does not implement. Tomcat renders those with the host's error report valve,
 * an HTML page by default; this replaces that valve (Spring Boot's, which only hides the server's
 * version) with one that writes an RFC 9457 problem. Errors raised inside the application never get
 * here: {@link ProblemResponses} and {@link ErrorPath} answer them.
 */
@Component
class ContainerProblems implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

    private final JsonMapper json;

    ContainerProblems(JsonMapper json) {
        this.json = json;
    }

    /** After Spring Boot's own customizer, whose context customizer installs the valve replaced here. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void customize(ConfigurableTomcatWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            Container parent = context.getParent();
            if (parent instanceof Host host) {
                for (Valve valve : host.getPipeline().getValves()) {
                    if (valve instanceof ErrorReportValve && !(valve instanceof ProblemValve)) {
                        host.getPipeline().removeValve(valve);
                    }
                }
                host.getPipeline().addValve(new ProblemValve(json));
                // The host adds a valve of this class when it starts unless one is there: ours is.
                if (host instanceof StandardHost standard) {
                    standard.setErrorReportValveClass(ProblemValve.class.getName());
                }
            }
        });
    }

    /** Writes the error Tomcat recorded on the response as problem+json, with no server details. */
    static final class ProblemValve extends ErrorReportValve {

        private final JsonMapper json;

        ProblemValve(JsonMapper json) {
            this.json = json;
            setShowReport(false);
            setShowServerInfo(false);
        }

        @Override
        protected void report(Request request, Response response, Throwable throwable) {
            int status = response.getStatus();
            if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
                return;
            }
            HttpStatus known = HttpStatus.resolve(status);
            String reason = known == null ? "Error" : known.getReasonPhrase();
            String type = status == 400 ? "malformed-request" : status == 404 ? "not-found" : "http-" + status;
            ProblemDetail problem = ProblemResponses.problem(
                    known == null ? HttpStatus.BAD_REQUEST : known,
                    type,
                    reason,
                    status == 400
                            ? "The request cannot be parsed: its request line, a header, the path or its framing is malformed"
                            : reason);
            problem.setStatus(status);
            try {
                response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
                response.setCharacterEncoding("UTF-8");
                try (OutputStream out = response.getOutputStream()) {
                    json.writeValue(out, problem);
                }
            } catch (IOException | IllegalStateException e) {
                // The connection is already gone or the response already committed: nothing more to tell.
            }
        }
    }
}
