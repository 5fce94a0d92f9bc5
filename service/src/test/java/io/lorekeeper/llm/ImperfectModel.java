package io.lorekeeper.llm;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import com.openai.core.http.Headers;
import com.openai.errors.InternalServerException;
import com.openai.models.ErrorObject;

/**
 * A stand-in for a real model on a bad day: the {@link SimulatedChatModels simulated model}'s
 * replies, of which a fixed share comes back as HTTP 500 ({@value #SERVER_ERRORS}%), cut at the
 * output limit ({@value #CUT}%: half the reply, {@code finish_reason: length}) or in prose where
 * JSON was asked ({@value #PROSE}%). Which call gets which fault follows from a hash of its prompt
 * and how often that prompt was sent before, so a run is reproducible whatever order concurrent
 * calls come in, and a retried call may succeed.
 */
public final class ImperfectModel implements ChatModel {

    static final int SERVER_ERRORS = 15;
    static final int CUT = 15;
    static final int PROSE = 25;

    private final ChatModel simulated = new SimulatedChatModels(Duration.ZERO).forProfile(null);
    private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> faults = new ConcurrentHashMap<>();
    private final AtomicLong calls = new AtomicLong();
    private volatile boolean down;

    /** Every call from now on fails as a connection refused would, until {@link #up()}. */
    public void down() {
        down = true;
    }

    public void up() {
        down = false;
    }

    /** How many calls got each fault ({@code server-error}, {@code cut}, {@code prose}) and how many were served. */
    public Map<String, Long> faults() {
        Map<String, Long> out = new java.util.TreeMap<>();
        faults.forEach((k, v) -> out.put(k, v.get()));
        out.put("calls", calls.get());
        return out;
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        calls.incrementAndGet();
        if (down) {
            throw new com.openai.errors.OpenAIIoException(
                    "Request failed", new java.net.ConnectException("Failed to connect to /127.0.0.1:9"));
        }
        String key = prompt.getInstructions().stream()
                .map(Message::getText)
                .map(String::valueOf)
                .reduce("", String::concat);
        int attempt = attempts.computeIfAbsent(key, k -> new AtomicInteger()).getAndIncrement();
        int roll = Math.floorMod((key + "#" + attempt).hashCode() * 31 + 17, 100);
        if (roll < SERVER_ERRORS) {
            count("server-error");
            throw InternalServerException.builder()
                    .statusCode(500)
                    .headers(Headers.builder().build())
                    .error(ErrorObject.builder()
                            .message("the stand-in is having a bad day")
                            .type("server_error")
                            .code("internal")
                            .param(Optional.empty())
                            .build())
                    .build();
        }
        ChatResponse response = simulated.call(prompt);
        AssistantMessage reply = response.getResult().getOutput();
        String text = reply.getText() == null ? "" : reply.getText();
        if (!reply.getToolCalls().isEmpty() || text.isEmpty()) {
            return response;
        }
        if (roll < SERVER_ERRORS + CUT) {
            count("cut");
            return withReply(response, text.substring(0, text.length() / 2), "length");
        }
        if (roll < SERVER_ERRORS + CUT + PROSE && text.startsWith("{")) {
            count("prose");
            return withReply(response, prose(text), "stop");
        }
        return response;
    }

    /** What a model answering in prose says: the longest string value of its JSON, in a sentence, without braces. */
    private static String prose(String json) {
        java.util.regex.Matcher strings =
                java.util.regex.Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(json);
        String longest = "";
        while (strings.find()) {
            if (strings.group(1).length() > longest.length()) {
                longest = strings.group(1);
            }
        }
        return "Sure. From what I read, " + longest.replaceAll("[{}\\[\\]\\\\]", "") + ".";
    }

    private static ChatResponse withReply(ChatResponse response, String text, String finishReason) {
        return new ChatResponse(
                List.of(new Generation(
                        AssistantMessage.builder().content(text).build(),
                        ChatGenerationMetadata.builder()
                                .finishReason(finishReason)
                                .build())),
                response.getMetadata());
    }

    private void count(String fault) {
        faults.computeIfAbsent(fault, f -> new AtomicLong()).incrementAndGet();
    }

    /** Puts one {@link ImperfectModel} behind every model profile. */
    @TestConfiguration(proxyBeanMethods = false)
    public static class Config {

        @Bean
        ImperfectModel imperfectModel() {
            return new ImperfectModel();
        }

        @Bean
        @Primary
        ChatModelProvider imperfectModelProvider(ImperfectModel model) {
            return profile -> model;
        }
    }
}
