package io.lorekeeper.llm;

import java.util.List;
import java.util.Map;

import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.observation.ChatModelMeterObservationHandler;
import org.springframework.ai.chat.observation.ChatModelObservationContext;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Spring AI's own observation of each model call, completed: its token counter (which Spring AI's
 * auto-configuration would register, and this service does not use), and the prompt and reply text on
 * its span only where the operator opts in.
 */
@Configuration(proxyBeanMethods = false)
class LlmObservability {

    /**
     * What model-call spans may carry, under {@code lorekeeper.llm.tracing}.
     *
     * @param includeContent put the messages sent and the reply on each {@code chat} span, as
     *                       {@code gen_ai.input.messages} and {@code gen_ai.output.messages} (at most
     *                       {@code maxContentLength} characters each). Off by default: prompts hold
     *                       document text, which a tracing backend may not be cleared to store.
     * @param maxContentLength characters of each of the two attributes kept when content is included
     */
    @ConfigurationProperties("lorekeeper.llm.tracing")
    record Settings(
            @DefaultValue("false") boolean includeContent,
            @DefaultValue("16000") int maxContentLength) {}

    /** {@code gen_ai.client.token.usage}, by model and token type: Spring AI's counter beside its timer. */
    @Bean
    ChatModelMeterObservationHandler chatModelMeterObservationHandler(MeterRegistry registry) {
        return new ChatModelMeterObservationHandler(registry);
    }

    @Bean
    ObservationFilter chatContentFilter(Settings settings) {
        JsonMapper json = JsonMapper.builder().build();
        return context -> {
            if (!settings.includeContent() || !(context instanceof ChatModelObservationContext chat)) {
                return context;
            }
            List<Map<String, String>> input = chat.getRequest().getInstructions().stream()
                    .map(LlmObservability::message)
                    .toList();
            chat.addHighCardinalityKeyValue(io.micrometer.common.KeyValue.of(
                    "gen_ai.input.messages", cut(json.writeValueAsString(input), settings.maxContentLength())));
            if (chat.getResponse() != null) {
                List<Map<String, String>> output = chat.getResponse().getResults().stream()
                        .map(Generation::getOutput)
                        .map(LlmObservability::message)
                        .toList();
                chat.addHighCardinalityKeyValue(io.micrometer.common.KeyValue.of(
                        "gen_ai.output.messages", cut(json.writeValueAsString(output), settings.maxContentLength())));
            }
            return context;
        };
    }

    private static Map<String, String> message(Message message) {
        return Map.of(
                "role",
                message.getMessageType().getValue(),
                "content",
                message.getText() == null ? "" : message.getText());
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "…";
    }
}
