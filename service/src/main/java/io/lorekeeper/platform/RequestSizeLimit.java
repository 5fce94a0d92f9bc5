package io.lorekeeper.platform;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;

import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses request bodies larger than any valid request can need, before they are read into memory.
 * A body that announces its length is refused unread; a chunked one (no {@code Content-Length}) is
 * counted as it is read and fails with {@link BodyTooLarge} at the first byte over the limit, which
 * {@link ProblemResponses} turns into the same 413. Multipart uploads are parsed by the servlet
 * container, which holds them to {@code spring.servlet.multipart.max-request-size} whether chunked
 * or not. The document limit applies to text after parsing; JSON escaping can multiply its size,
 * hence a separate, looser bound here.
 */
@Component
class RequestSizeLimit extends OncePerRequestFilter {

    private final long maxBytes;
    private final JsonMapper json;

    @Autowired
    RequestSizeLimit(PlatformSettings settings, JsonMapper json) {
        this(settings.http().maxRequestSize(), json);
    }

    RequestSizeLimit(DataSize maxRequestSize, JsonMapper json) {
        this.maxBytes = maxRequestSize.toBytes();
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long announced = request.getContentLengthLong();
        if (announced > maxBytes) {
            response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            json.writeValue(response.getOutputStream(), problem(maxBytes));
            return;
        }
        chain.doFilter(announced < 0 ? new Counted(request, maxBytes) : request, response);
    }

    static ProblemDetail problem(long maxBytes) {
        ProblemDetail problem = ProblemResponses.problem(
                HttpStatus.CONTENT_TOO_LARGE,
                "too-large",
                "Content too large",
                "the request body is larger than " + DataSize.ofBytes(maxBytes).toMegabytes() + " MB");
        problem.setProperty("field", "body");
        return problem;
    }

    /** Thrown from a read that would take a body of unannounced length past the limit. */
    static final class BodyTooLarge extends IOException {
        private final long maxBytes;

        BodyTooLarge(long maxBytes) {
            super("the request body is larger than " + maxBytes + " bytes");
            this.maxBytes = maxBytes;
        }

        long maxBytes() {
            return maxBytes;
        }
    }

    /** A request whose body stream counts what is read and stops at the limit. */
    private static final class Counted extends HttpServletRequestWrapper {
        private final long maxBytes;
        private ServletInputStream counted;

        Counted(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (counted == null) {
                counted = new CountingStream(super.getInputStream(), maxBytes);
            }
            return counted;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            Charset charset;
            try {
                charset = getCharacterEncoding() == null
                        ? StandardCharsets.UTF_8
                        : Charset.forName(getCharacterEncoding());
            } catch (IllegalArgumentException unknown) {
                throw new UnsupportedEncodingException(getCharacterEncoding());
            }
            return new BufferedReader(new InputStreamReader(getInputStream(), charset));
        }
    }

    private static final class CountingStream extends ServletInputStream {
        private final ServletInputStream in;
        private final long maxBytes;
        private long read;

        CountingStream(ServletInputStream in, long maxBytes) {
            this.in = in;
            this.maxBytes = maxBytes;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws BodyTooLarge {
            read += n;
            if (read > maxBytes) {
                throw new BodyTooLarge(maxBytes);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
