package io.lorekeeper.llm;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import tools.jackson.databind.json.JsonMapper;

/** Puts one {@link ScriptedChatModel} behind every model profile. */
@TestConfiguration(proxyBeanMethods = false)
public class ScriptedLlm {

    /**
     * Every document ingested with an LLM configured gets GAM memos and page headers; unless a test
     * scripts them, they are a fixed sentence naming the page's first line, as valid JSON.
     */
    @Bean
    ScriptedChatModel scriptedChatModel() {
        ScriptedChatModel model = new ScriptedChatModel();
        model.byDefault("gam/memo").reply(call -> json("memo", "Memo of " + firstPageLine(call.user())));
        model.byDefault("gam/page-header").reply(call -> json("header", "Context for " + firstPageLine(call.user())));
        // the MindGraph "graph" stage: an empty shared graph unless a test scripts the builder
        model.byDefault("mindgraph/build").reply("{\"operations\": []}");
        // ComoRAG's on-demand index stages, should a test build them without scripting them
        model.byDefault("comorag/ner").reply("{\"entities\": []}");
        model.byDefault("comorag/triples").reply("{\"entities\": [], \"triples\": []}");
        // the fact filter of ComoRAG's graph retrieval: the linked facts that share a word with the probe
        model.byDefault("comorag/fact-filter")
                .reply(call -> JsonMapper.builder()
                        .build()
                        .writeValueAsString(
                                java.util.Map.of("relevant", SimulatedComoRag.factsSharingAWord(call.user()))));
        model.byDefault("comorag/semantic-summary").reply("{\"summary\": \"A group of related passages.\"}");
        model.byDefault("comorag/episodic-summary").reply("{\"summary\": \"A stretch of the plot.\"}");
        return model;
    }

    /** The first line inside the prompt's {@code <page>} block. */
    public static String firstPageLine(String prompt) {
        int open = prompt.indexOf("<page>\n");
        if (open < 0) {
            return "";
        }
        int start = open + "<page>\n".length();
        int end = prompt.indexOf('\n', start);
        return prompt.substring(start, end < 0 ? prompt.length() : end);
    }

    private static String json(String field, String value) {
        return JsonMapper.builder().build().writeValueAsString(java.util.Map.of(field, value));
    }

    @Bean
    @Primary
    ChatModelProvider scriptedChatModelProvider(ScriptedChatModel model) {
        return profile -> model;
    }
}
