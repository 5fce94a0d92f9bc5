package io.lorekeeper.memory;

import java.util.List;

import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;
import org.springframework.ai.openai.OpenAiEmbeddingModel;
import org.springframework.ai.openai.OpenAiEmbeddingOptions;

/**
 * Embeddings from an OpenAI-compatible endpoint through Spring AI's {@link OpenAiEmbeddingModel}, held
 * to what the stored vectors need: the configured dimension (a reply of another is refused with the
 * numbers, never stored), one vector per text, and texts bounded as the in-process model bounds them.
 * The dimension is the configured one, so that a replica starts without the endpoint being up.
 */
final class EndpointEmbeddingModel implements EmbeddingModel {

    private final EmbeddingModel client;
    private final EmbeddingEndpointSettings settings;

    EndpointEmbeddingModel(EmbeddingEndpointSettings settings) {
        this(
                OpenAiEmbeddingModel.builder()
                        .options(OpenAiEmbeddingOptions.builder()
                                .baseUrl(settings.baseUrl())
                                .apiKey(settings.apiKey().isBlank() ? "not-needed" : settings.apiKey())
                                .model(settings.model())
                                .timeout(settings.timeout())
                                .maxRetries(settings.maxRetries())
                                .dimensions(settings.askDimensions() ? settings.dimensions() : null)
                                .build())
                        .build(),
                settings);
    }

    EndpointEmbeddingModel(EmbeddingModel client, EmbeddingEndpointSettings settings) {
        this.client = client;
        this.settings = settings;
    }

    @Override
    public EmbeddingResponse call(EmbeddingRequest request) {
        List<String> texts = request.getInstructions().stream()
                .map(OnnxEmbeddingModel::bounded)
                .toList();
        if (texts.isEmpty()) {
            return new EmbeddingResponse(List.of());
        }
        EmbeddingResponse response;
        try {
            response = client.call(new EmbeddingRequest(texts, request.getOptions()));
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "the embeddings endpoint " + settings.baseUrl() + " failed: " + e.getMessage(), e);
        }
        if (response.getResults().size() != texts.size()) {
            throw new IllegalStateException("the embeddings endpoint returned "
                    + response.getResults().size() + " vectors for " + texts.size() + " texts");
        }
        response.getResults().forEach(result -> {
            int got = result.getOutput().length;
            if (got != settings.dimensions()) {
                throw new IllegalStateException("the embeddings endpoint returned " + got
                        + "-dimensional vectors where " + settings.dimensions() + " are expected (model "
                        + settings.model() + "); nothing was stored");
            }
        });
        return response;
    }

    @Override
    public float[] embed(Document document) {
        return embed(document.getText());
    }

    @Override
    public int dimensions() {
        return settings.dimensions();
    }
}
