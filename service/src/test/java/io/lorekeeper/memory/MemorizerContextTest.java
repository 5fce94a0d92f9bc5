package io.lorekeeper.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.support.TestDocuments;
import io.lorekeeper.text.TokenCounter;

/**
 * The memorizer writes each memo from the whole memory so far when the model's context holds it
 * (the paper's m_i), not from the last few thousand tokens of it.
 */
@LlmIntegrationTest
class MemorizerContextTest {

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Test
    void aLateMemoSeesTheFirstPagesMemoEvenWhenTheMemoryOutgrowsTheOldCap() {
        model.reset();
        String filler = "The keeper logged the weather, the ships that passed and the state of the lamp. ".repeat(25);
        model.on("gam/memo").reply(call -> {
            String page = call.user().replaceAll("(?s).*\\nPage (\\d+).*", "$1");
            return "{\"memo\": \"MEMO-OF-PAGE-" + page + " " + filler.strip() + "\"}";
        });
        TestDocuments.ConversationBuilder chat = TestDocuments.aConversation().titled("Lighthouse log");
        for (int s = 0; s < 12; s++) {
            chat.session(
                    (s + 1) + ":00 pm on " + (s + 1) + " May, 2024",
                    "Ailsa",
                    "Entry " + s + ": a quiet night at the light.",
                    "Ruari",
                    "Noted.");
        }
        UUID log = api.ingest(chat.build());
        api.awaitStage(log, "memos", "DONE", Duration.ofMinutes(2));

        List<ScriptedChatModel.Call> memos = model.calls("gam/memo");
        assertThat(memos).hasSize(12);
        String last = memos.getLast().user();
        int earlierMemoTokens = 11 * TokenCounter.count("MEMO-OF-PAGE-0 " + filler.strip());
        assertThat(earlierMemoTokens).as("more than the old 3,000-token view").isGreaterThan(3000);
        assertThat(last)
                .contains("MEMO-OF-PAGE-0 ")
                .contains("MEMO-OF-PAGE-10 ")
                .doesNotContain("earlier pages are left out");
    }
}
