package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.lorekeeper.comorag.ComoRagStore.Fact;
import io.lorekeeper.comorag.ComoRagStore.Unit;
import io.lorekeeper.document.Documents;
import io.lorekeeper.document.stage.StageOrder;
import io.lorekeeper.document.stage.StageRun;
import io.lorekeeper.llm.Budget;
import io.lorekeeper.llm.CallScope;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.memory.Embeddings;
import io.lorekeeper.platform.Failures;

/**
 * The {@code triples} stage (ComoRAG's veridical layer, after HippoRAG 2's open information
 * extraction). By default in HippoRAG 2's two steps: one MEMORIZER call names the unit's entities
 * (NER), a second writes the facts about them as triples given those entities (OpenIE); with
 * {@code lorekeeper.comorag.triples.extraction: single}, one call does both. Each fact string is
 * embedded, so a probe can reach the unit that states it. A unit's entities and triples are stored
 * together as soon as both steps are done, so a stopped job resumes at the units still without them
 * (a unit stopped between its two steps names its entities again). A unit whose reply to either
 * step stays unusable after the gateway's repair is left without them and reported as a gap
 * ({@link StageRun#itemFailed}); the stage still ends DONE, and its next run tries that unit again.
 * Once the units are done, the stage builds the document's veridical graph from all of its triples
 * ({@link GraphIndex}, no model call).
 */
@Component
class TripleStage extends IndexStage {

    static final String NAME = "triples";
    static final String TEMPLATE = "comorag/triples";
    static final String NER = "comorag/ner";
    /** What the triples prompt is told when no NER step ran before it. */
    static final String NO_ENTITIES_GIVEN = "(none given: name them yourself)";
    /** Longer parts are a model quoting whole sentences into a triple; they make poor facts. */
    private static final int MAX_PART_CHARS = 200;

    private static final Logger log = LoggerFactory.getLogger(TripleStage.class);

    private final ComoRagStore store;
    private final Documents documents;
    private final Embeddings embeddings;
    private final ComoRagSettings settings;
    private final GraphIndex graphs;
    private final TripleSettings extraction;

    TripleStage(
            ComoRagStore store,
            LlmGateway gateway,
            Documents documents,
            Embeddings embeddings,
            ComoRagSettings settings,
            GraphIndex graphs,
            TripleSettings extraction) {
        super(NAME, StageOrder.COMORAG_TRIPLES, gateway);
        this.extraction = extraction;
        this.store = store;
        this.graphs = graphs;
        this.documents = documents;
        this.embeddings = embeddings;
        this.settings = settings;
    }

    @Override
    public void run(StageRun run) {
        VeridicalStage.requireUnits(store, run, NAME);
        UUID documentId = run.document().id();
        int total = store.unitCount(documentId);
        List<Unit> pending = store.unitsWithoutTriples(documentId);
        AtomicInteger done = new AtomicInteger(total - pending.size());
        run.progress(done.get(), total);
        if (pending.isEmpty()) {
            if (store.graph(documentId).isEmpty()) {
                graphs.build(documentId);
            }
            return;
        }
        String text = documents.text(documentId);
        LlmSession llm = gateway.open(CallScope.document(run.document().tenantId(), documentId), Budget.unlimited());
        AtomicInteger facts = new AtomicInteger();
        AtomicInteger gaps = new AtomicInteger();
        Parallel.map(pending, settings.buildParallelism(), unit -> {
            TripleReply reply;
            try {
                reply = extract(llm, unit.span().of(text));
            } catch (UnusableReplyException unusable) {
                // the unit stays without triples (a gap the next run tries again); the others go on
                gaps.incrementAndGet();
                run.itemFailed("unit " + unit.ordinal(), Failures.describe(unusable));
                return unit;
            }
            Extracted extracted = clean(unit, reply);
            store.saveTriples(
                    unit,
                    extracted.entities(),
                    extracted.facts(),
                    embeddings.passages(
                            extracted.facts().stream().map(Fact::text).toList()));
            facts.addAndGet(extracted.facts().size());
            run.progress(done.incrementAndGet(), total);
            return unit;
        });
        // the graph of every unit with triples; a gap left now is added by the run that fills it
        graphs.build(documentId);
        log.info(
                "Triples of document {}: {} units, {} facts, {} units left without triples",
                documentId,
                pending.size() - gaps.get(),
                facts.get(),
                gaps.get());
    }

    /**
     * One unit's entities and triples: NER, then OpenIE given the entities (HippoRAG 2), or one call
     * for both. The entities stored are those the NER step named and any more the OpenIE step listed.
     */
    private TripleReply extract(LlmSession llm, String unit) {
        if (!extraction.twoSteps()) {
            return llm.structured(
                    Role.MEMORIZER, TEMPLATE, Map.of("unit", unit, "entities", NO_ENTITIES_GIVEN), TripleReply.class);
        }
        List<String> named =
                llm.structured(Role.MEMORIZER, NER, Map.of("unit", unit), NerReply.class).entityList().stream()
                        .filter(e -> e != null && !e.isBlank())
                        .map(TripleStage::normalise)
                        .distinct()
                        .toList();
        TripleReply facts = llm.structured(
                Role.MEMORIZER, TEMPLATE, Map.of("unit", unit, "entities", entityList(named)), TripleReply.class);
        List<String> entities = new ArrayList<>(named);
        facts.entityList().stream()
                .filter(e -> e != null && !named.contains(normalise(e)))
                .forEach(entities::add);
        return new TripleReply(entities, facts.triples());
    }

    /** The NER step's entities as the OpenIE prompt reads them: a JSON list of strings. */
    static String entityList(List<String> entities) {
        return entities.stream()
                .map(e -> "\"" + e.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
                .collect(java.util.stream.Collectors.joining(", ", "[", "]"));
    }

    record Extracted(List<String> entities, List<Fact> facts) {}

    /** Trimmed, whitespace-collapsed, without duplicates; parts too long to be a fact are dropped. */
    static Extracted clean(Unit unit, TripleReply reply) {
        Set<String> entities = new LinkedHashSet<>();
        for (String entity : reply.entityList()) {
            String e = entity == null ? "" : normalise(entity);
            if (!e.isEmpty() && e.length() <= MAX_PART_CHARS) {
                entities.add(e);
            }
        }
        Map<String, Fact> facts = new LinkedHashMap<>();
        for (TripleReply.Triple t : reply.tripleList()) {
            String s = normalise(t.subject());
            String p = normalise(t.predicate());
            String o = normalise(t.object());
            if (s.length() > MAX_PART_CHARS || p.length() > MAX_PART_CHARS || o.length() > MAX_PART_CHARS) {
                continue;
            }
            Fact fact = new Fact(unit.key(), s, p, o);
            facts.putIfAbsent(fact.text().toLowerCase(Locale.ROOT), fact);
        }
        return new Extracted(List.copyOf(entities), new ArrayList<>(facts.values()));
    }

    private static String normalise(String s) {
        return s.strip().replaceAll("\\s+", " ");
    }

    @Override
    public void reset(UUID documentId) {
        store.clearTriples(documentId);
    }
}
