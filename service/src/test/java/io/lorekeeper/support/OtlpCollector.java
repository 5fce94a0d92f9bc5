package io.lorekeeper.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

import com.sun.net.httpserver.HttpServer;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

/**
 * A stand-in OpenTelemetry collector in the test JVM: it accepts OTLP/HTTP trace exports
 * ({@code POST /v1/traces}, protobuf) as a real collector would, and keeps every span it receives for
 * tests to read. One per JVM, started on first use.
 */
public final class OtlpCollector {

    private static OtlpCollector instance;

    private final HttpServer server;
    private final List<Span> spans = new CopyOnWriteArrayList<>();

    private OtlpCollector(HttpServer server) {
        this.server = server;
    }

    public static synchronized OtlpCollector get() {
        if (instance == null) {
            try {
                HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
                OtlpCollector collector = new OtlpCollector(server);
                server.createContext("/v1/traces", exchange -> {
                    try (InputStream body = exchange.getRequestBody()) {
                        InputStream in = "gzip"
                                        .equalsIgnoreCase(
                                                exchange.getRequestHeaders().getFirst("Content-Encoding"))
                                ? new GZIPInputStream(body)
                                : body;
                        ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(in);
                        for (ResourceSpans resource : request.getResourceSpansList()) {
                            for (ScopeSpans scope : resource.getScopeSpansList()) {
                                collector.spans.addAll(scope.getSpansList());
                            }
                        }
                        byte[] reply =
                                ExportTraceServiceResponse.getDefaultInstance().toByteArray();
                        exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
                        exchange.sendResponseHeaders(200, reply.length);
                        exchange.getResponseBody().write(reply);
                    } finally {
                        exchange.close();
                    }
                });
                server.start();
                instance = collector;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return instance;
    }

    /** Where the service exports to: the property {@code management.opentelemetry.tracing.export.otlp.endpoint}. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/traces";
    }

    /** Every span received so far. */
    public List<Span> spans() {
        return new ArrayList<>(spans);
    }

    /** The value of a span's string or integer attribute, or null. */
    public static String attribute(Span span, String key) {
        return span.getAttributesList().stream()
                .filter(a -> a.getKey().equals(key))
                .map(a -> a.getValue().hasIntValue()
                        ? Long.toString(a.getValue().getIntValue())
                        : a.getValue().hasArrayValue()
                                ? a.getValue().getArrayValue().getValuesList().stream()
                                        .map(v -> v.getStringValue())
                                        .toList()
                                        .toString()
                                : a.getValue().getStringValue())
                .findFirst()
                .orElse(null);
    }
}
