package io.lorekeeper.mcp;

import java.util.Map;

import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.lorekeeper.security.CurrentTenant;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import tools.jackson.databind.json.JsonMapper;

/**
 * Registers the MCP SDK's streamable HTTP transport as a servlet at {@code /mcp} and the server
 * with Lorekeeper's tools and resources on it.
 */
@Configuration(proxyBeanMethods = false)
class McpEndpoint {

    static final String PATH = "/mcp";
    static final String TENANT = "lorekeeper.tenant";

    @Bean
    HttpServletStreamableServerTransportProvider mcpTransport(JsonMapper json, CurrentTenant tenant) {
        return HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(new JacksonMcpJsonMapper(json))
                .mcpEndpoint(PATH)
                // RequestSizeLimit holds /mcp to the service's one request size limit, as every request; the SDK's
                // own lower default (16 MB) would refuse a text or file that the REST API and the tools accept.
                .maxRequestSize(Integer.MAX_VALUE)
                // Read on the request's own thread, where whatever identifies the caller is in scope.
                .contextExtractor(request -> McpTransportContext.create(Map.of(TENANT, tenant.id())))
                .build();
    }

    @Bean
    ServletRegistrationBean<HttpServletStreamableServerTransportProvider> mcpServlet(
            HttpServletStreamableServerTransportProvider transport) {
        ServletRegistrationBean<HttpServletStreamableServerTransportProvider> registration =
                new ServletRegistrationBean<>(transport, PATH, PATH + "/*");
        registration.setName("mcp");
        registration.setAsyncSupported(true);
        return registration;
    }

    @Bean(destroyMethod = "closeGracefully")
    McpSyncServer mcpServer(HttpServletStreamableServerTransportProvider transport, LorekeeperTools tools) {
        return McpServer.sync(transport)
                .serverInfo("lorekeeper", "v1")
                .instructions(
                        "Answers questions over long documents with citations at exact character offsets. Add a text "
                                + "with add_text_document, wait until list_documents shows it READY, then ask_question; every citation's "
                                + "quote is the document text in [start, end), readable as the resource lorekeeper://documents/{id}/text/{start}/{end}.")
                .capabilities(McpSchema.ServerCapabilities.builder()
                        .tools(false)
                        .resources(false, false)
                        .build())
                // Handlers run on the request thread, so the caller's tenant (and its keys) stay in scope.
                .immediateExecution(true)
                // The tools read their arguments as the REST API reads fields, refusing a wrong one with a problem
                // that names it; the SDK's schema check would answer first, in prose of its own.
                .validateToolInputs(false)
                .tools(tools.tools())
                .resourceTemplates(tools.resourceTemplates())
                .build();
    }
}
