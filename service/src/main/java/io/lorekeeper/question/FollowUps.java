package io.lorekeeper.question;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

import io.lorekeeper.llm.LlmException;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.platform.Failures;
import io.lorekeeper.question.QuestionStore.StoredQuestion;
import io.lorekeeper.strategy.Trace;
import io.lorekeeper.text.TokenCounter;

/**
 * Reads a question asked in a thread in the light of the thread's earlier turns: one call (the
 * {@code planner} role, on the question's budget) rewrites it into a question that stands on its own
 * ("Who is her mother?" after "Who is Estella?" becomes "Who is Estella's mother?"), which is what the
 * strategy is asked and retrieves with. Without a model, or when the call fails, the follow-up is
 * asked as it was, and the question says why.
 */
@Component
class FollowUps {

    static final String TEMPLATE = "thread/rewrite";
    /** The longest rewrite kept: a reply longer than this answered instead of rewriting. */
    private static final int MAX_REWRITE_CHARS = 2_000;

    private final ThreadStore threads;
    private final QuestionStore store;
    private final LlmGateway gateway;
    private final ThreadSettings settings;

    FollowUps(ThreadStore threads, QuestionStore store, LlmGateway gateway, ThreadSettings settings) {
        this.threads = threads;
        this.store = store;
        this.gateway = gateway;
        this.settings = settings;
    }

    /** The question the strategy is asked: the standalone rewrite of a follow-up, else the question as asked. */
    String read(StoredQuestion question, LlmSession llm, Trace trace) {
        if (question.threadId() == null) {
            return question.question();
        }
        List<ThreadStore.Turn> turns =
                carried(threads.earlierTurns(question.threadId(), question.createdAt(), settings.turnsCarried()));
        if (turns.isEmpty()) {
            // the first question of its thread: nothing to read it by, and no call spent
            store.change(question.id(), q -> q.readAs(null, "the first answered question of its thread"));
            return question.question();
        }
        String history = render(turns);
        int tokens = TokenCounter.count(history);
        String skipped = null;
        String standalone = null;
        if (!gateway.isReachable(Role.PLANNER)) {
            skipped = "no LLM is configured (or its endpoint is down): the follow-up was answered as asked";
        } else {
            try {
                standalone = firstLine(llm.text(
                        Role.PLANNER,
                        TEMPLATE,
                        Map.of("history", PromptMarkup.of(history), "question", question.question())));
                if (standalone.isEmpty() || standalone.length() > MAX_REWRITE_CHARS) {
                    skipped = "the rewrite was empty or too long to be a question: the follow-up was answered as asked";
                    standalone = null;
                }
            } catch (LlmException failed) {
                skipped = "the rewrite call failed (" + Failures.describe(failed) + "): the follow-up was answered"
                        + " as asked";
            }
        }
        String note = skipped;
        String asked = standalone;
        store.change(question.id(), q -> q.readAs(asked, note));
        trace.record(new ThreadEvent.Rewrite(question.question(), standalone, turns.size(), tokens, skipped));
        return standalone == null ? question.question() : standalone;
    }

    /** The latest turns whose tokens fit, oldest first: the oldest are left out first. */
    private List<ThreadStore.Turn> carried(List<ThreadStore.Turn> turns) {
        List<ThreadStore.Turn> kept = new ArrayList<>();
        int tokens = 0;
        for (int i = turns.size() - 1; i >= 0; i--) {
            ThreadStore.Turn turn = turns.get(i);
            int more = TokenCounter.count(turn.question()) + TokenCounter.count(turn.answer());
            if (!kept.isEmpty() && tokens + more > settings.tokensCarried()) {
                break;
            }
            kept.addFirst(turn);
            tokens += more;
        }
        return kept;
    }

    private static String render(List<ThreadStore.Turn> turns) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < turns.size(); i++) {
            out.append("<turn n=\"")
                    .append(i + 1)
                    .append("\">\nQuestion: ")
                    .append(PromptMarkup.data(turns.get(i).question()))
                    .append("\nAnswer: ")
                    .append(PromptMarkup.data(turns.get(i).answer()))
                    .append("\n</turn>\n");
        }
        return out.toString();
    }

    private static String firstLine(String reply) {
        String text = reply == null ? "" : reply.strip();
        int newline = text.indexOf('\n');
        return (newline < 0 ? text : text.substring(0, newline)).strip();
    }
}
