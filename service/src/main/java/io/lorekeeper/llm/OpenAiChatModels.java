package io.lorekeeper.llm;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.stereotype.Component;

import io.micrometer.observation.ObservationRegistry;

/**
 * One OpenAI-compatible client per profile. The SDK's own retries are switched off: the gateway
 * retries itself, so that it can honour Retry-After beyond the SDK's 8-second cap and count every
 * attempt against the budget.
 */
@Component
class OpenAiChatModels implements ChatModelProvider {

    /** Local servers (Ollama, vLLM, llama.cpp) accept any key; the SDK insists on one. */
    static final String NO_KEY = "not-needed";

    private final Map<String, ChatModel> models = new ConcurrentHashMap<>();
    private final ObservationRegistry observations;

    /**
     * @param observations Spring AI's own {@code gen_ai.client.operation} observation of each HTTP call
     *                     (a span with the GenAI semantic-convention attributes, and its timer), made inside
     *                     the gateway's {@link LlmCallObservation}
     */
    OpenAiChatModels(ObservationRegistry observations) {
        this.observations = observations;
    }

    @Override
    public ChatModel forProfile(ModelProfile profile) {
        return models.computeIfAbsent(
                profile.name(),
                name -> OpenAiChatModel.builder()
                        .options(OpenAiChatOptions.builder()
                                .baseUrl(profile.baseUrl())
                                .apiKey(profile.apiKey() == null ? NO_KEY : profile.apiKey())
                                .model(profile.model())
                                .timeout(profile.timeout())
                                .maxRetries(0)
                                .build())
                        .observationRegistry(observations)
                        .build());
    }
}
