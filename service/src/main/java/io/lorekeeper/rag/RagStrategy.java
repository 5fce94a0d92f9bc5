package io.lorekeeper.rag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.Documents;
import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.retrieval.SearchMode;
import io.lorekeeper.strategy.AnswerParts;
import io.lorekeeper.strategy.Aptitude;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.GoodAt;
import io.lorekeeper.strategy.LastResort;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.SettingsStrategy;
import io.lorekeeper.strategy.StepEvent;
import io.lorekeeper.strategy.StrategyRequirements;
import io.lorekeeper.strategy.StrategyResult;
import io.lorekeeper.text.TokenCounter;

/**
 * The single-shot baseline every comparison table starts from: hybrid retrieval of the best chunks
 * for the question, in rank order while they fit a context budget, one answer call over them,
 * citations located in the passages the model quotes. No iteration, no memory beyond the index.
 *
 * <p>The budget is in tokens, not chunks, because chunks differ in size by kind of document: 8
 * chunks of a novel are about 2,000 tokens, 8 turns of a conversation (one chunk each) about 300.
 */
@Component
class RagStrategy extends SettingsStrategy<RagStrategy.Settings> {

    private final Documents documents;

    RagStrategy(Documents documents) {
        super(
                "rag",
                StrategyRequirements.of(
                        true, "single-shot baseline: hybrid retrieval within a token budget and one answer call"),
                Settings::of);
        this.documents = documents;
    }

    private static final Set<String> OPTIONS = Set.of("k", "window", "tokens");

    /**
     * @param k at most this many passages
     * @param window each passage widened by this many neighbouring chunks on either side
     * @param tokens passages are taken in rank order while their tokens fit (the first always is);
     *               the default holds the 8 chunks of a text that {@code k} used to mean
     */
    record Settings(int k, int window, int tokens) {
        static Settings of(QuestionOptions options) {
            options.allowOnly(OPTIONS);
            return new Settings(
                    options.intValue("k", 50, 1, 50),
                    options.intValue("window", 0, 0, 5),
                    options.intValue("tokens", 2048, 1, 100_000));
        }
    }

    /** One retrieval and one answer call: a single fact, a text one retrieval shows whole, a small budget. */
    @Override
    public List<GoodAt> goodAt() {
        return List.of(GoodAt.of(Aptitude.ONE_CALL, 10));
    }

    @Override
    protected StrategyResult answer(QuestionContext context, Settings settings) {
        List<Passages.Passage> passages = retrieve(context, settings);
        PromptMarkup rendered = Passages.render(passages);
        context.trace()
                .record(new RagEvent.Retrieve(
                        context.question(),
                        SearchMode.HYBRID.wireName(),
                        settings.k(),
                        settings.tokens(),
                        Passages.summary(passages),
                        TokenCounter.count(rendered.text())));
        List<SearchHit> shown = passages.stream().map(Passages.Passage::hit).toList();
        RagReply reply;
        try {
            reply = context.llm()
                    .answering()
                    .structuredOrText(
                            Role.ANSWERER,
                            "rag/answer",
                            variables(context, rendered),
                            RagReply.class,
                            RagReply::plainText);
        } catch (UnusableReplyException unusable) {
            context.trace().record(new StepEvent.Failed("answer", unusable.getMessage()));
            return LastResort.answer(
                    context,
                    "the answer's reply was unusable: " + unusable.getMessage(),
                    shown.stream().map(LastResort.Evidence::of).toList(),
                    false);
        } catch (BudgetExhaustedException spent) {
            // not even the answer's reserve is left: the question module answers without a model
            context.trace().record(new StepEvent.BudgetSpent("answer", spent.getMessage()));
            throw spent;
        }
        return cite(context, reply, shown);
    }

    /** The best hybrid hits, each widened by its neighbours where asked, in rank order while their tokens fit. */
    private List<Passages.Passage> retrieve(QuestionContext context, Settings settings) {
        List<SearchHit> hits = context.retriever().hybrid(context.documentIds(), context.question(), settings.k());
        List<Passages.Passage> passages = new ArrayList<>();
        int tokens = 0;
        for (SearchHit hit : hits) {
            SearchHit shown = settings.window() == 0 ? hit : widen(context, hit, settings.window());
            int more = TokenCounter.count(shown.text());
            if (!passages.isEmpty() && tokens + more > settings.tokens()) {
                break;
            }
            passages.add(new Passages.Passage(shown, session(context, hit)));
            tokens += more;
        }
        return passages;
    }

    /** The reply's answer, with a citation for each quote it gave, located in the passages shown. */
    private static StrategyResult cite(QuestionContext context, RagReply reply, List<SearchHit> shown) {
        List<Citation> citations = new ArrayList<>();
        List<RagEvent.Located> located = new ArrayList<>();
        for (RagReply.Evidence evidence : reply.evidence() == null ? List.<RagReply.Evidence>of() : reply.evidence()) {
            // a passage number out of range or a quote from another passage is looked up in every passage shown
            AnswerParts.Quoted quoted = AnswerParts.quotedIn(shown, evidence.passage() - 1, evidence.quote());
            citations.add(quoted.citation());
            located.add(new RagEvent.Located(evidence.passage(), quoted.located()));
        }
        Integer choice = AnswerParts.validChoice(context, reply.choice());
        String answer = choice != null ? context.choices().get(choice) : reply.answer();
        context.trace().record(new RagEvent.Answer(answer, reply.confidence(), located));
        return new StrategyResult(answer, StrategyResult.GENERATED, citations, reply.confidence(), choice, false);
    }

    private static Map<String, Object> variables(QuestionContext context, PromptMarkup passages) {
        Map<String, Object> vars = new LinkedHashMap<>(AnswerParts.choiceVariables(context));
        vars.put("passages", passages);
        vars.put("question", context.question());
        vars.put("abstainRule", AnswerParts.abstainRule(context));
        return vars;
    }

    /** The chunk with its neighbours, as one span of the canonical text (separators included, so offsets stay exact). */
    private SearchHit widen(QuestionContext context, SearchHit hit, int window) {
        List<SearchHit> around = context.retriever().neighbours(hit.documentId(), hit.chunkOrdinal(), window);
        int start = around.getFirst().start();
        int end = around.getLast().end();
        return new SearchHit(
                hit.documentId(),
                hit.chunkOrdinal(),
                hit.pageOrdinal(),
                start,
                end,
                documents.text(hit.documentId()).substring(start, end),
                hit.turnIds(),
                hit.speakers(),
                hit.score());
    }

    /** The session line of a conversation chunk's page, or null for plain texts. */
    private static String session(QuestionContext context, SearchHit hit) {
        return context.retriever()
                .sessionHeader(hit.documentId(), hit.pageOrdinal())
                .map(h -> h.text())
                .orElse(null);
    }
}
