package io.lorekeeper.platform;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.util.unit.DataSize;

import tools.jackson.databind.json.JsonMapper;

class RequestSizeLimitTest {

    private final RequestSizeLimit filter = new RequestSizeLimit(DataSize.ofKilobytes(1), JsonMapper.builder().build());

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
        assertThat(chain.getRequest()).as("the request never reached the application").isNull();
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
