package io.lorekeeper.retrieval;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.lorekeeper.document.Documents;
import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.llm.Budget;
import io.lorekeeper.llm.CallScope;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.platform.ApiDocs;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.security.CurrentTenant;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

@RestController
@Tag(name = "Search", description = "The retrieval toolkit the strategies use, exposed directly")
class SearchController {

    /** One search's model rerank: one call, and no longer than a slow model's answer takes. */
    private static final Duration MODEL_RERANK_TIME = Duration.ofMinutes(2);

    private final Retriever retriever;
    private final Documents documents;
    private final CurrentTenant tenant;
    private final Reranking reranking;
    private final LlmGateway gateway;

    SearchController(
            Retriever retriever, Documents documents, CurrentTenant tenant, Reranking reranking, LlmGateway gateway) {
        this.retriever = retriever;
        this.documents = documents;
        this.tenant = tenant;
        this.reranking = reranking;
        this.gateway = gateway;
    }

    record SearchRequest(
            @Schema(description = "Documents to search (all READY)", requiredMode = Schema.RequiredMode.REQUIRED)
            List<UUID> documentIds,

            @Schema(
                    description = "What to look for",
                    requiredMode = Schema.RequiredMode.REQUIRED,
                    minLength = 1,
                    maxLength = SearchQuery.MAX_LENGTH)
            String query,

            @Schema(
                    description = "Ranking",
                    allowableValues = {
                        SearchMode.Names.VECTOR,
                        SearchMode.Names.KEYWORD,
                        SearchMode.Names.HYBRID,
                        SearchMode.Names.DEEP
                    },
                    defaultValue = SearchMode.Names.HYBRID)
            String mode,

            @Schema(description = "Hits to return", minimum = "1", maximum = "100", defaultValue = "10")
            Integer k,

            @Schema(
                    description = "Neighbouring chunks on each side to return as context",
                    minimum = "0",
                    maximum = "10",
                    defaultValue = "0")
            Integer window) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(description = "A chunk that matched: `text` is the canonical text in [start, end) (UTF-16 code units)")
    record Hit(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            UUID documentId,

            int chunk,
            int page,
            int start,
            int end,
            double score,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String text,

            @Schema(description = "Conversation turns the chunk overlaps (conversations only)")
            List<String> turnIds,

            @Schema(description = "Who speaks in those turns (conversations only)")
            List<String> speakers,

            @Schema(description = "The chunk with its neighbours, when `window` > 0")
            Context context) {}

    @Schema(description = "A wider span around a hit: the canonical text in [start, end)")
    record Context(int start, int end, String text) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(
            name = "SearchRerank",
            description = "How the first-stage hits were reranked, when a reranker is configured")
    record Rerank(
            @Schema(
                    requiredMode = Schema.RequiredMode.REQUIRED,
                    description = "`llm`, or the endpoint's format and address, or `onnx` and the model")
            String by,

            @Schema(description = "First-stage hits the reranker was shown")
            int candidates,

            @Schema(description = "The model's prompt tokens (a model rerank only)")
            Long promptTokens,

            @Schema(description = "The model's completion tokens (a model rerank only)")
            Long completionTokens,

            @Schema(description = "Why the first-stage order stood, when it did")
            String skipped) {

        static Rerank of(RerankScope.Reranked r) {
            boolean model = LlmReranker.BY.equals(r.by());
            return new Rerank(
                    r.by(),
                    r.candidates(),
                    model ? r.promptTokens() : null,
                    model ? r.completionTokens() : null,
                    r.skipped());
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(description = "The hits, best first, and how they were ranked")
    record SearchResponse(
            @Schema(
                    requiredMode = Schema.RequiredMode.REQUIRED,
                    allowableValues = {
                        SearchMode.Names.VECTOR,
                        SearchMode.Names.KEYWORD,
                        SearchMode.Names.HYBRID,
                        SearchMode.Names.DEEP
                    })
            String mode,

            int k,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            List<Hit> hits,

            long tookMs,

            Rerank rerank) {}

    @PostMapping("/v1/search")
    @Operation(
            operationId = "searchDocuments",
            description =
                    "Hits carry their score, their `[start, end)` span of the canonical text, chunk and page ordinals, turn ids with speakers, and, with `window`, the neighbouring text. Every document must be READY and the caller's.",
            summary =
                    "Search documents by vector, keyword (BM25), hybrid (reciprocal-rank fusion) or deep (hybrid plus a second, feedback-steered retrieval)")
    @ApiResponse(responseCode = "200", description = "The hits, best first")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    SearchResponse search(@RequestBody SearchRequest request) {
        if (request == null) {
            throw ApiProblem.invalid("body", "a JSON body is required");
        }
        SearchQuery.require("query", request.query());
        SearchMode mode = mode(request.mode());
        int k = request.k() == null ? 10 : request.k();
        if (k < 1 || k > 100) {
            throw ApiProblem.invalid("k", "k must be between 1 and 100");
        }
        int window = request.window() == null ? 0 : request.window();
        if (window < 0 || window > 10) {
            throw ApiProblem.invalid("window", "window must be between 0 and 10");
        }
        List<UUID> ids = documents.requireReady(tenant.id(), request.documentIds(), "documentIds").stream()
                .map(d -> d.id())
                .toList();
        long started = System.nanoTime();
        AtomicReference<RerankScope.Reranked> reranked = new AtomicReference<>();
        List<SearchHit> found = retriever.within(rerankScope(reranked::set)).search(ids, request.query(), mode, k);
        List<Hit> hits = new ArrayList<>();
        for (SearchHit h : found) {
            hits.add(new Hit(
                    h.documentId(),
                    h.chunkOrdinal(),
                    h.pageOrdinal(),
                    h.start(),
                    h.end(),
                    h.score(),
                    h.text(),
                    h.turnIds().isEmpty() ? null : h.turnIds(),
                    h.speakers().isEmpty() ? null : h.speakers(),
                    window == 0 ? null : context(h, window)));
        }
        return new SearchResponse(
                mode.wireName(),
                k,
                hits,
                (System.nanoTime() - started) / 1_000_000,
                reranked.get() == null ? null : Rerank.of(reranked.get()));
    }

    /** Where the rerank of this search is reported, and, for a model rerank, the one call's session. */
    private RerankScope rerankScope(Consumer<RerankScope.Reranked> report) {
        if (!reranking.modelReranks() || !gateway.isConfigured()) {
            return new RerankScope(null, report);
        }
        return new RerankScope(
                gateway.open(CallScope.tenant(tenant.id()), new Budget(1, Long.MAX_VALUE, MODEL_RERANK_TIME)), report);
    }

    private Context context(SearchHit hit, int window) {
        List<SearchHit> around = retriever.neighbours(hit.documentId(), hit.chunkOrdinal(), window);
        int start = around.getFirst().start();
        int end = around.getLast().end();
        return new Context(start, end, documents.text(hit.documentId()).substring(start, end));
    }

    private static SearchMode mode(String mode) {
        if (mode == null || mode.isBlank()) {
            return SearchMode.HYBRID;
        }
        try {
            return SearchMode.valueOf(mode.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ApiProblem.invalid("mode", "mode must be one of vector, keyword, hybrid, deep");
        }
    }
}
