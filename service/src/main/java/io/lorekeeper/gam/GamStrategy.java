package io.lorekeeper.gam;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.strategy.AnswerParts;
import io.lorekeeper.strategy.Aptitude;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.GoodAt;
import io.lorekeeper.strategy.LastResort;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.SettingsStrategy;
import io.lorekeeper.strategy.StepEvent;
import io.lorekeeper.strategy.StrategyRequirements;
import io.lorekeeper.strategy.StrategyResult;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

/**
 * General Agentic Memory's researcher over the memorizer's memos and page store (seed
 * 004_1811736a72c205ce, section 2.2). Up to {@code maxDepth} rounds of: plan (information needs
 * and searches, from the memos and the notes so far) → search (keyword, vector and page-id tools
 * in parallel) → integrate (rewrite the notes with every page the round found, pages read in
 * earlier rounds included, keeping page sources) → reflect (enough? if not, at most five follow-up
 * requests that drive the next plan). Plan, integrate and reflect reason in a leading
 * {@code thinking} field before their JSON, as the paper's prompts think before they answer; that
 * reasoning is traced and never enters the notes. The answerer then writes the short answer from
 * the notes alone (the paper's default output), or from the notes and the source pages or snippets,
 * with the part of the budget kept for the answer ({@link GamResearch} stops before it). An answer
 * reply with nothing usable is answered by the last resort over the notes and the pages read.
 */
@Component
class GamStrategy extends SettingsStrategy<GamSettings> {

    private final LlmGateway gateway;

    GamStrategy(LlmGateway gateway) {
        // page headers sharpen retrieval but the research loop runs without them
        super(
                "gam",
                new StrategyRequirements(
                        true,
                        Set.of("memos"),
                        Set.of("page-headers"),
                        "GAM: memos at ingestion, then plan-search-integrate-reflect research rounds over the page store"),
                GamSettings::of);
        this.gateway = gateway;
    }

    /** Research rounds that follow up what is missing, and memos dated by their sessions. */
    @Override
    public List<GoodAt> goodAt() {
        return List.of(
                GoodAt.of(Aptitude.CONVERSATION_REASONING, 10),
                GoodAt.of(Aptitude.JOINED_FACTS, 10),
                GoodAt.of(Aptitude.TEXT_WHOLE_STORY, 20),
                GoodAt.of(Aptitude.LONG_TEXT_WHOLE_STORY, 30));
    }

    /** One research round (plan, integrate, reflect) and the answer. */
    @Override
    public int minimumCalls() {
        return 4;
    }

    @Override
    protected StrategyResult answer(QuestionContext context, GamSettings settings) {
        PageSearch search = new PageSearch(context.retriever(), context.documentIds());
        GamResearch research = new GamResearch(context, settings, gateway, search).run();
        return answer(context, settings, search, research);
    }

    /**
     * The answerer over the notes (and the excerpts, in the paper's other output formats), through the
     * part of the budget kept for the answer. A reply with nothing usable is answered by the last
     * resort over the notes and the pages read; a budget spent even for the answer leaves the notes
     * themselves as the answer.
     */
    private StrategyResult answer(
            QuestionContext context, GamSettings settings, PageSearch search, GamResearch research) {
        Integration integration = research.integration();
        boolean shown = !settings.output().equals(GamSettings.INTEGRATION);
        List<SearchHit> excerpts = shown ? excerpts(context, settings, search, research) : List.of();
        recordContext(context, settings, search, research, excerpts);
        GamAnswer reply;
        try {
            reply = context.llm()
                    .answering()
                    .structuredOrText(
                            Role.ANSWERER,
                            "gam/answer",
                            answerVariables(
                                    context,
                                    integration,
                                    shown ? Excerpts.render(excerpts, search) : PromptMarkup.of("")),
                            GamAnswer.class,
                            GamAnswer::plainText);
        } catch (BudgetExhaustedException spent) {
            context.trace().record(new StepEvent.BudgetSpent("answer", spent.getMessage()));
            return notesAsAnswer(context, search, research, spent);
        } catch (UnusableReplyException unusable) {
            context.trace().record(new StepEvent.Failed("answer", unusable.getMessage()));
            return lastResort(context, search, research, "the answer reply was unusable: " + unusable.getMessage());
        }
        Integer choice = AnswerParts.validChoice(context, reply.choice());
        String answer = choice != null ? context.choices().get(choice) : reply.answer();
        boolean abstained = choice == null && abstains(context, reply);
        List<Citation> citations =
                abstained ? List.of() : citations(context, settings, search, research, excerpts, reply);
        context.trace().record(new GamEvent.Answer(answer, reply.confidence(), abstained ? true : null, null));
        return new StrategyResult(
                answer, StrategyResult.GENERATED, citations, reply.confidence(), choice, research.limited());
    }

    /** The source pages or snippets shown beside the notes ({@code output} pages or snippets). */
    private List<SearchHit> excerpts(
            QuestionContext context, GamSettings settings, PageSearch search, GamResearch research) {
        if (research.read().isEmpty()) {
            return List.of();
        }
        int excerptBudget = settings.pageTokens() > 0
                ? settings.pageTokens()
                : Math.max(
                        1000,
                        gateway.contextLimit(Role.ANSWERER).promptTokens()
                                - TokenCounter.count(research.integration().render())
                                - GamResearch.PROMPT_OVERHEAD);
        return Excerpts.select(
                settings.output(),
                research.integration(),
                research.read(),
                search,
                context.retriever(),
                context.question(),
                excerptBudget);
    }

    /** The answerer's context, for the trace: the notes, the excerpts, and the spans of the text they stand for. */
    private static void recordContext(
            QuestionContext context,
            GamSettings settings,
            PageSearch search,
            GamResearch research,
            List<SearchHit> excerpts) {
        boolean shown = !settings.output().equals(GamSettings.INTEGRATION);
        Integration integration = research.integration();
        // with the integration alone (the paper's default), the answerer's context is the notes, built from the pages
        // they cite
        List<PageRef> sources = Excerpts.sources(integration, research.read());
        List<GamEvent.TextSpan> spans = new ArrayList<>();
        if (shown) {
            excerpts.forEach(e -> spans.add(new GamEvent.TextSpan(e.documentId(), e.start(), e.end())));
        } else {
            sources.forEach(ref -> {
                Span span = research.pageSpans().get(ref);
                if (span != null) {
                    spans.add(new GamEvent.TextSpan(search.document(ref), span.start(), span.end()));
                }
            });
        }
        context.trace()
                .record(new GamEvent.Context(
                        settings.output(),
                        TokenCounter.count(integration.render()),
                        shown ? Excerpts.tokens(excerpts) : 0,
                        sources.stream()
                                .filter(research.pageSpans()::containsKey)
                                .count(),
                        spans));
    }

    /** The quotes the answerer copied from the excerpts, or the chunks behind the notes that share most words with the answer. */
    private static List<Citation> citations(
            QuestionContext context,
            GamSettings settings,
            PageSearch search,
            GamResearch research,
            List<SearchHit> excerpts,
            GamAnswer reply) {
        List<Citation> citations = new ArrayList<>();
        if (!settings.output().equals(GamSettings.INTEGRATION)) {
            for (GamAnswer.Evidence evidence : reply.evidence()) {
                citations.add(AnswerParts.quotedIn(excerpts, evidence.excerpt() - 1, evidence.quote())
                        .citation());
            }
        } else {
            // the answerer saw only the notes: cite the chunks of the pages behind them that share most words with the
            // answer
            supporting(
                            context,
                            search,
                            research.integration(),
                            research.read(),
                            context.question() + " " + reply.answer())
                    .forEach(e -> citations.add(Citation.of(e.documentId(), e.start(), e.end(), e.text())));
        }
        return citations;
    }

    /**
     * Whether the answerer declined to answer: an answer saying the information is not there, or, where
     * {@code options.abstain} allows declining, a confidence of 0. Such an answer cites nothing.
     */
    static boolean abstains(QuestionContext context, GamAnswer reply) {
        return (context.options().abstain() && reply.confidence() == 0.0)
                || ABSTENTION.matcher(reply.answer()).find();
    }

    private static final java.util.regex.Pattern ABSTENTION = java.util.regex.Pattern.compile(
            "\\b(not available|not (mentioned|stated|specified|given|found)|no information|cannot be determined)\\b",
            java.util.regex.Pattern.CASE_INSENSITIVE);

    /** At most three chunks of the pages behind the notes, those sharing most words with {@code wanted} and the notes. */
    private static List<SearchHit> supporting(
            QuestionContext context,
            PageSearch search,
            Integration integration,
            Map<PageRef, PageSearch.Found> read,
            String wanted) {
        if (read.isEmpty()) {
            return List.of();
        }
        List<SearchHit> snippets =
                Excerpts.select("snippets", integration, read, search, context.retriever(), wanted, Integer.MAX_VALUE);
        return snippets.size() > 3 ? snippets.subList(0, 3) : snippets;
    }

    /**
     * The last resort over what the research gathered: the notes, then excerpts of every page fetched for
     * an integration (integrated or not). When even that call cannot be made, the notes are the answer.
     */
    private static StrategyResult lastResort(
            QuestionContext context, PageSearch search, GamResearch research, String reason) {
        List<LastResort.Evidence> evidence = new ArrayList<>();
        if (!research.integration().summary().isBlank()
                || !research.integration().facts().isEmpty()) {
            evidence.add(LastResort.Evidence.note(research.integration().render()));
        }
        supportingAll(context, search, research).forEach(hit -> evidence.add(LastResort.Evidence.of(hit)));
        try {
            return LastResort.answer(context, reason, evidence, research.limited());
        } catch (BudgetExhaustedException spent) {
            context.trace().record(new StepEvent.BudgetSpent("last-resort", spent.getMessage()));
            return notesAsAnswer(context, search, research, spent);
        }
    }

    /** Excerpts of every page fetched, those sharing most words with the question and the notes first. */
    private static List<SearchHit> supportingAll(QuestionContext context, PageSearch search, GamResearch research) {
        if (research.fetched().isEmpty()) {
            return List.of();
        }
        return Excerpts.select(
                "snippets",
                research.integration(),
                research.fetched(),
                search,
                context.retriever(),
                context.question(),
                Integer.MAX_VALUE);
    }

    /**
     * The best answer without the answerer, when the budget refuses even the answer's call: the notes
     * themselves, backed by the excerpts they rest on. With no notes there is nothing to say, and the
     * budget stop goes to the question module, which answers without a model.
     */
    private static StrategyResult notesAsAnswer(
            QuestionContext context, PageSearch search, GamResearch research, BudgetExhaustedException spent) {
        Integration integration = research.integration();
        if (integration.summary().isBlank()) {
            throw spent;
        }
        List<Citation> citations =
                supporting(context, search, integration, research.read(), context.question()).stream()
                        .map(e -> Citation.of(e.documentId(), e.start(), e.end(), e.text()))
                        .toList();
        context.trace().record(new GamEvent.Answer(integration.summary(), 0.0, null, true));
        return new StrategyResult(integration.summary(), StrategyResult.GENERATED, citations, 0.0, null, true);
    }

    private static Map<String, Object> answerVariables(
            QuestionContext context, Integration integration, PromptMarkup excerpts) {
        Map<String, Object> vars = new LinkedHashMap<>(AnswerParts.choiceVariables(context));
        vars.put("integration", integration.render());
        vars.put("excerpts", excerpts);
        vars.put("question", context.question());
        vars.put("abstainRule", AnswerParts.abstainRule(context));
        return vars;
    }
}
