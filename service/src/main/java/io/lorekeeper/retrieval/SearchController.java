package io.lorekeeper.retrieval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.lorekeeper.document.Documents;
import io.lorekeeper.document.search.SearchHit;
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

    private final Retriever retriever;
    private final Documents documents;
    private final CurrentTenant tenant;

    SearchController(Retriever retriever, Documents documents, CurrentTenant tenant) {
        this.retriever = retriever;
        this.documents = documents;
        this.tenant = tenant;
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

            long tookMs) {}

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
        List<SearchHit> found = retriever.search(ids, request.query(), mode, k);
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
        return new SearchResponse(mode.wireName(), k, hits, (System.nanoTime() - started) / 1_000_000);
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
