package io.lorekeeper.mcp;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/**
 * The servlet at {@code /mcp}: checks that each message posted has the shape the SDK's transport
 * reads, then hands it over. The SDK converts a request's {@code params} to its own types outside its
 * error handling, so params of the wrong shape (tool arguments that are a string, params that are a
 * list) failed the whole exchange with a 500 whose body was the Java exception, stack trace and all.
 * Such a message, and one that is not a JSON object, is answered here with a JSON-RPC error naming
 * the member at fault. The body has passed the service's request size limit before it gets here.
 */
class McpMessageShape extends HttpServlet {

    private final HttpServletStreamableServerTransportProvider transport;
    private final JsonMapper json;

    McpMessageShape(HttpServletStreamableServerTransportProvider transport, JsonMapper json) {
        this.transport = transport;
        this.json = json;
    }

    HttpServletStreamableServerTransportProvider transport() {
        return transport;
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        transport.init(config);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        if (!"POST".equals(request.getMethod())) {
            transport.service(request, response);
            return;
        }
        byte[] body = request.getInputStream().readAllBytes();
        Refusal refusal = check(new InputStreamReader(new ByteArrayInputStream(body), charsetOf(request)));
        if (refusal != null) {
            // A request's error is its response (a client takes a 400 in a session for a lost session);
            // what has no id to answer is refused as HTTP.
            response.setStatus(refusal.id() == null ? HttpServletResponse.SC_BAD_REQUEST : HttpServletResponse.SC_OK);
            response.setContentType("application/json");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            json.writeValue(response.getOutputStream(), refusal.response());
            return;
        }
        transport.service(new Replayed(request, body), response);
    }

    /**
     * Why the SDK cannot read {@code body}, or null when it can. Streams over it, values skipped rather
     * than built, reading characters as the transport does (a name holding a lone surrogate is for the
     * tools to refuse, naming it).
     */
    private Refusal check(Reader body) {
        try (JsonParser parser = json.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return new Refusal(
                        null, McpSchema.ErrorCodes.INVALID_REQUEST, "a message must be one JSON-RPC object", "body");
            }
            Object id = null;
            String method = null;
            JsonToken params = null;
            JsonToken arguments = null;
            while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if (name.equals("id") && (value == JsonToken.VALUE_STRING || value == JsonToken.VALUE_NUMBER_INT)) {
                    id = value == JsonToken.VALUE_STRING ? parser.getString() : parser.getNumberValue();
                } else if (name.equals("method") && value == JsonToken.VALUE_STRING) {
                    method = parser.getString();
                } else if (name.equals("params")) {
                    params = value;
                    arguments = value == JsonToken.START_OBJECT ? argumentsOf(parser) : skip(parser);
                } else {
                    parser.skipChildren();
                }
            }
            if (parser.nextToken() != null) {
                return new Refusal(
                        id, McpSchema.ErrorCodes.INVALID_REQUEST, "a message must be one JSON-RPC object", "body");
            }
            if (params != null && params != JsonToken.START_OBJECT && params != JsonToken.VALUE_NULL) {
                return new Refusal(id, McpSchema.ErrorCodes.INVALID_PARAMS, "params must be an object", "params");
            }
            if (McpSchema.METHOD_TOOLS_CALL.equals(method)
                    && arguments != null
                    && arguments != JsonToken.START_OBJECT
                    && arguments != JsonToken.VALUE_NULL) {
                return new Refusal(
                        id, McpSchema.ErrorCodes.INVALID_PARAMS, "arguments must be an object", "params.arguments");
            }
            return null;
        } catch (JacksonException e) {
            return new Refusal(null, McpSchema.ErrorCodes.PARSE_ERROR, "the body is not valid JSON", "body");
        }
    }

    /** The token {@code arguments} starts with in the params object the parser is at, or null; leaves the parser at its end. */
    private static JsonToken argumentsOf(JsonParser parser) {
        JsonToken arguments = null;
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            if (name.equals("arguments")) {
                arguments = value;
            }
            parser.skipChildren();
        }
        return arguments;
    }

    private static JsonToken skip(JsonParser parser) {
        parser.skipChildren();
        return null;
    }

    /** The body's charset as the transport reads it: the request's, UTF-8 when it names none. */
    private static Charset charsetOf(HttpServletRequest request) {
        String encoding = request.getCharacterEncoding();
        return encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
    }

    /** A JSON-RPC error response naming the member at fault in {@code data.field}. */
    private record Refusal(Object id, int code, String message, String field) {

        Map<String, Object> response() {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("code", code);
            error.put("message", message);
            error.put("data", Map.of("field", field));
            Map<String, Object> response = new LinkedHashMap<>();
            response.put("jsonrpc", McpSchema.JSONRPC_VERSION);
            response.put("id", id);
            response.put("error", error);
            return response;
        }
    }

    /** The request with its body, already read here, to be read again by the transport. */
    private static final class Replayed extends HttpServletRequestWrapper {

        private final byte[] body;

        Replayed(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("the body is already read");
                }

                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) {
                    return in.read(buffer, offset, length);
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(getInputStream(), charsetOf(this)));
        }
    }
}
