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
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/**
 * Registers the MCP SDK's streamable HTTP transport as a servlet at {@code /mcp} and the server
 * with Lorekeeper's tools and resources on it.
 */
@Configuration(proxyBeanMethods = false)
class McpEndpoint {

    static final String PATH = "/mcp";
    static final String TENANT = "lorekeeper.tenant";

    /**
     * The SDK's transport behind the check of each message's shape. The transport is no bean of its own:
     * as a servlet bean, Spring Boot would also map it at a path of its own, without the check.
     */
    @Bean
    McpMessageShape mcpMessages(JsonMapper json, CurrentTenant tenant) {
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(new JacksonMcpJsonMapper(json.rebuild()
                        .addModule(new SimpleModule("mcp-transport-errors")
                                .addSerializer(McpError.class, new TransportErrors()))
                        .build()))
                .mcpEndpoint(PATH)
                // RequestSizeLimit holds /mcp to the service's one request size limit, as every request; the SDK's
                // own lower default (16 MB) would refuse a text or file that the REST API and the tools accept.
                .maxRequestSize(Integer.MAX_VALUE)
                // Read on the request's own thread, where whatever identifies the caller is in scope.
                .contextExtractor(request -> McpTransportContext.create(Map.of(TENANT, tenant.id())))
                .build();
        return new McpMessageShape(transport, json);
    }

    @Bean
    ServletRegistrationBean<McpMessageShape> mcpServlet(McpMessageShape messages) {
        ServletRegistrationBean<McpMessageShape> registration =
                new ServletRegistrationBean<>(messages, PATH, PATH + "/*");
        registration.setName("mcp");
        registration.setAsyncSupported(true);
        return registration;
    }

    @Bean(destroyMethod = "closeGracefully")
    McpSyncServer mcpServer(McpMessageShape messages, LorekeeperTools tools) {
        return McpServer.sync(messages.transport())
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
                .resources(tools.resources())
                .resourceTemplates(tools.resourceTemplates())
                .build();
    }

    /**
     * Writes a transport's refusal (an unknown session, a missing Accept header) as the JSON-RPC error
     * response it stands for. The transport writes the exception object itself otherwise, which put its
     * class, cause and stack trace in the reply. What follows a message's first colon quotes the
     * exception behind it ("Error processing message: ...") and is left to the log the SDK writes.
     */
    static final class TransportErrors extends ValueSerializer<McpError> {

        @Override
        public void serialize(McpError error, JsonGenerator out, SerializationContext context) {
            McpSchema.JSONRPCResponse.JSONRPCError rpc = error.getJsonRpcError();
            String message = rpc == null || rpc.message() == null ? "internal error" : rpc.message();
            out.writeStartObject();
            out.writeStringProperty("jsonrpc", McpSchema.JSONRPC_VERSION);
            out.writeNullProperty("id");
            out.writeName("error");
            out.writeStartObject();
            out.writeNumberProperty("code", rpc == null ? McpSchema.ErrorCodes.INTERNAL_ERROR : rpc.code());
            out.writeStringProperty(
                    "message", message.contains(":") ? message.substring(0, message.indexOf(':')) : message);
            out.writeEndObject();
            out.writeEndObject();
        }
    }
}
