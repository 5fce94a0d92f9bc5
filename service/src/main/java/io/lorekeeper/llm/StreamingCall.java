package io.lorekeeper.llm;

import java.time.Duration;
import java.util.List;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;

import io.lorekeeper.text.TokenCounter;
import reactor.core.publisher.Flux;

/**
 * One attempt of a call through Spring AI's streaming API ({@link ChatModel#stream}): each chunk's text
 * goes to the listener as it arrives, and the chunks are gathered into one {@link ChatResponse} (text,
 * finish reason, the usage of the stream's last chunk) that the caller counts like a plain reply.
 */
final class StreamingCall {

    /** The stream stopped after some text arrived, before the model finished its reply. */
    static final class Cut extends RuntimeException {
        private final String partial;

        Cut(String message, String partial, Throwable cause) {
            super(message, cause);
            this.partial = partial;
        }

        String partial() {
            return partial;
        }
    }

    /**
     * The reply, gathered; null when the model cannot stream (a chat model without streaming, or an
     * endpoint that ended the response without a single chunk: one that answers a streaming request
     * with a whole completion). A failure before any text is thrown as it came, so the caller retries it
     * like any failed attempt; after text arrived it is a {@link Cut}. Kept whole (over 60 lines): the text,
     * finish reason and usage gathered from the chunks are what each way out of the stream (not
     * streamed, cut, ended) decides on.
     */
    ChatResponse stream(ChatModel model, Prompt prompt, Duration idle, ChatCaller.Pieces pieces) {
        Flux<ChatResponse> chunks;
        try {
            // the profile's timeout bounds the wait for each chunk, not the whole reply, which may take longer
            chunks = model.stream(prompt).timeout(idle);
        } catch (UnsupportedOperationException cannot) {
            return null;
        }
        StringBuilder text = new StringBuilder();
        String finish = null;
        Usage usage = null;
        boolean anyChunk = false;
        try {
            for (ChatResponse chunk : chunks.toIterable()) {
                anyChunk = true;
                if (chunk.getMetadata() != null && counted(chunk.getMetadata().getUsage())) {
                    usage = chunk.getMetadata().getUsage();
                }
                for (Generation generation : chunk.getResults()) {
                    String piece = generation.getOutput() == null
                            ? null
                            : generation.getOutput().getText();
                    if (piece != null && !piece.isEmpty()) {
                        text.append(piece);
                        pieces.piece(piece);
                    }
                    String reason = generation.getMetadata() == null
                            ? null
                            : generation.getMetadata().getFinishReason();
                    if (reason != null && !reason.isBlank()) {
                        finish = reason;
                    }
                }
            }
        } catch (UnsupportedOperationException cannot) {
            if (text.isEmpty()) {
                return null;
            }
            throw new Cut(cannot.getMessage(), text.toString(), cannot);
        } catch (RuntimeException failed) {
            if (text.isEmpty()) {
                throw failed;
            }
            throw new Cut(String.valueOf(failed.getMessage()), text.toString(), failed);
        }
        if (!anyChunk) {
            return null;
        }
        if (finish == null) {
            throw new Cut("the stream ended before the model finished its reply", text.toString(), null);
        }
        pieces.ended(true);
        ChatResponseMetadata.Builder metadata = new ChatResponseMetadata.Builder();
        if (usage != null) {
            metadata.usage(new DefaultUsage(usage.getPromptTokens(), usage.getCompletionTokens()));
        } else {
            // an endpoint that ignores stream_options.include_usage: count the call by our own estimate
            metadata.usage(new DefaultUsage(
                    (int) Math.min(Integer.MAX_VALUE, promptTokens(prompt)), TokenCounter.count(text.toString())));
        }
        return new ChatResponse(
                List.of(new Generation(
                        new AssistantMessage(text.toString()),
                        ChatGenerationMetadata.builder().finishReason(finish).build())),
                metadata.build());
    }

    private static long promptTokens(Prompt prompt) {
        return prompt.getInstructions().stream()
                .mapToLong(m -> TokenCounter.count(String.valueOf(m.getText())))
                .sum();
    }

    private static boolean counted(Usage usage) {
        return usage != null
                && ((usage.getPromptTokens() != null && usage.getPromptTokens() > 0)
                        || (usage.getCompletionTokens() != null && usage.getCompletionTokens() > 0));
    }
}
