package io.lorekeeper.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.util.unit.DataSize;

import tools.jackson.databind.json.JsonMapper;

class RequestSizeLimitTest {

    private final RequestSizeLimit filter =
            new RequestSizeLimit(DataSize.ofKilobytes(1), JsonMapper.builder().build());

    @Test
    void refusesBodiesAnnouncedLargerThanTheLimitWithoutReadingThem() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/v1/documents");
        request.setContent(new byte[2048]);
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();

        filter.doFilter(request, response, chain);

        assertThat(response.getStatus()).isEqualTo(413);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
        assertThat(response.getContentAsString()).contains("\"field\":\"body\"");
        assertThat(chain.getRequest())
                .as("the request never reached the application")
                .isNull();
    }

    @Test
    void countsAChunkedBodyAsItIsReadAndStopsAtTheFirstByteOverTheLimit() throws Exception {
        MockHttpServletRequest request = chunked(new byte[1500]);
        MockFilterChain chain = new MockFilterChain();

        filter.doFilter(request, new MockHttpServletResponse(), chain);

        InputStream body = chain.getRequest().getInputStream();
        assertThat(body.readNBytes(1024)).hasSize(1024);
        assertThatThrownBy(body::read).isInstanceOf(RequestSizeLimit.BodyTooLarge.class);
    }

    @Test
    void readsAChunkedBodyWithinTheLimitWholeThroughStreamOrReader() throws Exception {
        MockFilterChain viaStream = new MockFilterChain();
        filter.doFilter(
                chunked("s".repeat(1024).getBytes(StandardCharsets.UTF_8)), new MockHttpServletResponse(), viaStream);
        MockFilterChain viaReader = new MockFilterChain();
        filter.doFilter(
                chunked("r".repeat(1024).getBytes(StandardCharsets.UTF_8)), new MockHttpServletResponse(), viaReader);

        assertThat(new String(viaStream.getRequest().getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo("s".repeat(1024));
        assertThat(viaReader.getRequest().getReader().lines().findFirst()).contains("r".repeat(1024));
    }

    @Test
    void countsAChunkedBodyReadAsTextToo() throws Exception {
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(
                chunked("r".repeat(1025).getBytes(StandardCharsets.UTF_8)), new MockHttpServletResponse(), chain);

        BufferedReader reader = chain.getRequest().getReader();
        assertThatThrownBy(() -> reader.lines().count()).hasRootCauseInstanceOf(RequestSizeLimit.BodyTooLarge.class);
    }

    /** A request whose body announces no length, as a chunked one does. */
    private static MockHttpServletRequest chunked(byte[] body) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/v1/documents") {
            @Override
            public long getContentLengthLong() {
                return -1;
            }

            @Override
            public int getContentLength() {
                return -1;
            }
        };
        request.addHeader("Transfer-Encoding", "chunked");
        request.setContent(body);
        return request;
    }

    @Test
    void passesBodiesWithinTheLimit() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/v1/documents");
        request.setContent(new byte[512]);
        MockFilterChain chain = new MockFilterChain();

        filter.doFilter(request, new MockHttpServletResponse(), chain);

        assertThat(chain.getRequest()).isSameAs(request);
    }
}
