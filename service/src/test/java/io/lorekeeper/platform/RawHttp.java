package io.lorekeeper.platform;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An HTTP/1.1 client over a bare socket, for requests no well-behaved client library would send:
 * broken bytes, lying or missing lengths, chunked bodies, raw control characters in the request
 * line. Every request asks for its connection to be closed after the response.
 */
final class RawHttp {

    /** Writes a request body; chunked framing is applied around it by the sender. */
    interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private RawHttp() {}

    /**
     * Sends {@code head} (request line and headers, without the blank line that ends them), then
     * the body, chunked or as is. The response is read while the body is still being written, so a
     * server that answers early and closes (413) is heard rather than lost in a reset.
     */
    static Response send(int port, String head, Body body, boolean chunked, boolean halfClose) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", port), 5_000);
            socket.setSoTimeout(120_000);
            OutputStream out = socket.getOutputStream();
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    out.write((head + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    if (body != null) {
                        if (chunked) {
                            ChunkedOutput chunks = new ChunkedOutput(out);
                            body.writeTo(chunks);
                            chunks.finish();
                        } else {
                            body.writeTo(out);
                        }
                    }
                    out.flush();
                    if (halfClose) {
                        socket.shutdownOutput();
                    }
                } catch (IOException closedEarly) {
                    // The server answered and closed before taking the whole body: its answer is what counts.
                }
            });
            byte[] raw = readResponse(socket.getInputStream());
            try {
                writer.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return parse(raw);
        }
    }

    /**
     * Reads until the response is complete by its own framing (Content-Length, or the last chunk),
     * or the server closes. Not waiting for the close matters when the server answers before the body
     * it was promised arrives: it may then hold the connection open until its timeout.
     */
    private static byte[] readResponse(InputStream in) {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        byte[] buffer = new byte[16 * 1024];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                received.write(buffer, 0, n);
                if (complete(received.toByteArray())) {
                    break;
                }
            }
        } catch (IOException reset) {
            // A reset after the response arrived (the server closed with body bytes unread) loses nothing we need.
        }
        return received.toByteArray();
    }

    private static boolean complete(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            return false;
        }
        String head = text.substring(0, end).toLowerCase(Locale.ROOT);
        java.util.regex.Matcher length =
                java.util.regex.Pattern.compile("\r\ncontent-length:\\s*(\\d+)").matcher(head);
        if (length.find()) {
            return raw.length >= end + 4 + Long.parseLong(length.group(1));
        }
        return head.contains("\r\ntransfer-encoding: chunked") && text.endsWith("\r\n0\r\n\r\n");
    }

    private static Response parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/") || end < 0) {
            return new Response(
                    -1,
                    Map.of(),
                    "no HTTP response; received " + raw.length + " bytes: "
                            + text.substring(0, Math.min(200, text.length())));
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(
                        lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] dechunk(byte[] chunked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (at < chunked.length) {
            int lineEnd = indexOf(chunked, at);
            if (lineEnd < 0) {
                break;
            }
            String sizeLine = new String(chunked, at, lineEnd - at, StandardCharsets.ISO_8859_1).split(";")[0].trim();
            int size = Integer.parseInt(sizeLine, 16);
            if (size == 0) {
                break;
            }
            int from = lineEnd + 2;
            int to = Math.min(chunked.length, from + size);
            out.write(chunked, from, to - from);
            at = to + 2;
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] bytes, int from) {
        for (int i = from; i + 1 < bytes.length; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Frames what is written to it as HTTP/1.1 chunks. */
    private static final class ChunkedOutput extends OutputStream {
        private final OutputStream out;

        ChunkedOutput(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            if (length == 0) {
                return;
            }
            out.write((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(bytes, offset, length);
            out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }

        void finish() throws IOException {
            out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
    }
}
