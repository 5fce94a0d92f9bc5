package io.lorekeeper.retrieval;

import static io.lorekeeper.support.Problems.assertProblem;
import static io.lorekeeper.support.Problems.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.DocumentStatus;
import io.lorekeeper.document.Documents;
import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.support.ControllerSlice;
import tools.jackson.databind.JsonNode;

/**
 * SearchController at the web edge: each bound of the request named when crossed, before any
 * document is looked up; the parsed mode, k and window reaching the retriever; a hit's context cut
 * from the canonical text. Ranking is SearchApiTest's.
 */
@ControllerSlice
class SearchControllerTest {

    private static final UUID TENANT = UUID.fromString("7e1a0000-0000-4000-8000-00000000000d");
    /** Three chunks of ten characters: [0, 10), [10, 20), [20, 30). */
    private static final String TEXT = "Chunk one.Chunk two.Chunk 3..Tail";

    @Autowired
    MockMvcTester mvc;

    @Autowired
    Retriever retriever;

    @Autowired
    Documents documents;

    @Autowired
    CurrentTenant tenant;

    private final UUID document = UUID.randomUUID();

    @BeforeEach
    void caller() {
        when(tenant.id()).thenReturn(TENANT);
        // each request searches within its own rerank scope; the mock stands for both
        when(retriever.within(any())).thenReturn(retriever);
    }

    @Test
    void eachBoundOfTheRequestIsNamedWhenCrossedBeforeAnyDocumentIsLookedUp() {
        assertProblem(search("\"query\": \" \""), 400, "invalid-request", "query");
        assertProblem(search("\"query\": \"" + "q".repeat(4001) + "\""), 400, "invalid-request", "query");
        assertProblem(search("\"query\": \"lamp\", \"mode\": \"fuzzy\""), 400, "invalid-request", "mode");
        assertProblem(search("\"query\": \"lamp\", \"k\": 0"), 400, "invalid-request", "k");
        assertProblem(search("\"query\": \"lamp\", \"k\": 101"), 400, "invalid-request", "k");
        assertProblem(search("\"query\": \"lamp\", \"window\": -1"), 400, "invalid-request", "window");
        assertProblem(search("\"query\": \"lamp\", \"window\": 11"), 400, "invalid-request", "window");
        assertProblem(search("\"query\": \"lamp\", \"k\": \"ten\""), 400, "malformed-request", "k");
        // JSON null is a missing body to Spring MVC: refused before the controller, naming no field
        assertProblem(
                mvc.post()
                        .uri("/v1/search")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("null")
                        .exchange(),
                400,
                "malformed-request",
                null);

        verifyNoInteractions(documents, retriever);
    }

    @Test
    void aDocumentThatIsNotReadyIs409NamingDocumentIds() {
        when(documents.requireReady(TENANT, List.of(document), "documentIds"))
                .thenThrow(ApiProblem.conflict(
                        "document-not-ready",
                        "Document not ready",
                        "document " + document + " is INGESTING; wait until it is READY",
                        "documentIds"));

        assertProblem(search("\"query\": \"lamp\""), 409, "document-not-ready", "documentIds");

        verifyNoInteractions(retriever);
    }

    @Test
    void withoutModeKOrWindowTheSearchIsHybridForTenHitsWithoutContext() {
        when(documents.requireReady(TENANT, List.of(document), "documentIds")).thenReturn(List.of(ready()));
        when(retriever.search(List.of(document), "lamp", SearchMode.HYBRID, 10))
                .thenReturn(List.of(hit(1, 0.5, List.of())));

        MvcTestResult result = search("\"query\": \"lamp\"");

        assertThat(result).hasStatusOk();
        JsonNode body = json(result);
        assertThat(body.path("mode").asString()).isEqualTo("hybrid");
        assertThat(body.path("k").asInt()).isEqualTo(10);
        JsonNode hit = body.path("hits").path(0);
        assertThat(hit.path("chunk").asInt()).isEqualTo(1);
        assertThat(hit.path("text").asString()).isEqualTo("Chunk two.");
        assertThat(hit.has("context")).as("no window, no context").isFalse();
        assertThat(hit.has("turnIds")).as("a text's hit names no turns").isFalse();
        assertThat(hit.has("speakers")).as("nor speakers").isFalse();
        verify(retriever, never()).neighbours(any(), anyInt(), anyInt());
    }

    @Test
    void aWindowAddsTheTextFromTheFirstToTheLastNeighbour() {
        when(documents.requireReady(TENANT, List.of(document), "documentIds")).thenReturn(List.of(ready()));
        when(retriever.search(List.of(document), "lamp", SearchMode.KEYWORD, 3))
                .thenReturn(List.of(hit(1, 2.0, List.of("D1:2"))));
        when(retriever.neighbours(document, 1, 1))
                .thenReturn(List.of(hit(0, 0, List.of()), hit(1, 0, List.of()), hit(2, 0, List.of())));
        when(documents.text(document)).thenReturn(TEXT);

        MvcTestResult result = search("\"query\": \"lamp\", \"mode\": \"KEYWORD\", \"k\": 3, \"window\": 1");

        assertThat(result).hasStatusOk();
        JsonNode hit = json(result).path("hits").path(0);
        assertThat(json(result).path("mode").asString()).isEqualTo("keyword");
        assertThat(hit.path("turnIds").toString()).isEqualTo("[\"D1:2\"]");
        assertThat(hit.path("context").path("start").asInt()).isZero();
        assertThat(hit.path("context").path("end").asInt()).isEqualTo(30);
        assertThat(hit.path("context").path("text").asString()).isEqualTo(TEXT.substring(0, 30));
        verify(retriever).search(eq(List.of(document)), eq("lamp"), eq(SearchMode.KEYWORD), eq(3));
    }

    private MvcTestResult search(String more) {
        return mvc.post()
                .uri("/v1/search")
                .contentType(MediaType.APPLICATION_JSON)
                .content("{\"documentIds\": [\"" + document + "\"], " + more + "}")
                .exchange();
    }

    private SearchHit hit(int chunk, double score, List<String> turnIds) {
        return new SearchHit(
                document,
                chunk,
                0,
                chunk * 10,
                chunk * 10 + 10,
                TEXT.substring(chunk * 10, chunk * 10 + 10),
                turnIds,
                List.of(),
                score);
    }

    private DocumentInfo ready() {
        return new DocumentInfo(
                document, TENANT, "Chunks", DocumentKind.TEXT, "standard", DocumentStatus.READY, TEXT.length(), 9, 3);
    }
}
