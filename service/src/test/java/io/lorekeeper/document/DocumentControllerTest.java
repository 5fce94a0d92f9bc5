package io.lorekeeper.document;

import static io.lorekeeper.support.Problems.assertProblem;
import static io.lorekeeper.support.Problems.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

import io.lorekeeper.document.DocumentRequests.AppendSessions;
import io.lorekeeper.document.DocumentRequests.CreateDocument;
import io.lorekeeper.document.DocumentResponses.Accepted;
import io.lorekeeper.document.DocumentResponses.SessionsAppended;
import io.lorekeeper.document.intake.DocumentIntake;
import io.lorekeeper.document.intake.SessionAppender;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.support.ControllerSlice;
import tools.jackson.databind.JsonNode;

/**
 * DocumentController at the web edge: what it refuses before any service runs, how refusals look,
 * and that an accepted request reaches the services with the values it carried and the caller's
 * tenant. Ingestion itself is DocumentApiTest's.
 */
@ControllerSlice
class DocumentControllerTest {

    private static final UUID TENANT = UUID.fromString("7e1a0000-0000-4000-8000-00000000000a");
    private static final String TEXT = "The keeper lit the lamp.";

    @Autowired
    MockMvcTester mvc;

    @Autowired
    DocumentIntake intake;

    @Autowired
    DocumentViews views;

    @Autowired
    Documents documents;

    @Autowired
    SessionAppender appender;

    @Autowired
    CurrentTenant tenant;

    private final UUID id = UUID.randomUUID();

    @BeforeEach
    void caller() {
        when(tenant.id()).thenReturn(TENANT);
    }

    @Test
    void aDocumentNotFoundForTheCallersTenantIs404() {
        when(views.view(TENANT, id)).thenReturn(Optional.empty());

        JsonNode problem = assertProblem(mvc.get().uri("/v1/documents/{id}", id).exchange(), 404, "not-found", null);

        assertThat(problem.path("title").asString()).isEqualTo("Document not found");
        assertThat(problem.path("detail").asString()).contains(id.toString());
        verify(views).view(TENANT, id);
    }

    @Test
    void anIdThatIsNotAUuidIsRefusedBeforeAnyLookup() {
        assertProblem(mvc.get().uri("/v1/documents/not-a-uuid").exchange(), 400, "invalid-request", "id");
        assertProblem(mvc.get().uri("/v1/documents/{id}/text", "12345").exchange(), 400, "invalid-request", "id");
        assertProblem(mvc.delete().uri("/v1/documents/{id}", "x").exchange(), 400, "invalid-request", "id");

        verifyNoInteractions(views, documents, intake);
    }

    @Test
    void pagesOutsideTheirBoundsNameTheParameter() {
        assertProblem(mvc.get().uri("/v1/documents?page=-1").exchange(), 400, "invalid-request", "page");
        assertProblem(mvc.get().uri("/v1/documents?page=first").exchange(), 400, "invalid-request", "page");
        assertProblem(mvc.get().uri("/v1/documents?size=0").exchange(), 400, "invalid-request", "size");
        assertProblem(mvc.get().uri("/v1/documents?size=201").exchange(), 400, "invalid-request", "size");

        verify(views, never()).list(any(), anyLong(), anyInt());
    }

    @Test
    void aPageFarPastTheEndAsksForItsOffsetWithoutOverflowing() {
        when(views.list(eq(TENANT), anyLong(), eq(200))).thenReturn(List.of());
        when(views.count(TENANT)).thenReturn(3L);

        MvcTestResult result =
                mvc.get().uri("/v1/documents?page=2147483647&size=200").exchange();

        assertThat(result).hasStatusOk();
        assertThat(json(result).path("total").asLong()).isEqualTo(3);
        assertThat(json(result).path("page").asInt()).isEqualTo(Integer.MAX_VALUE);
        verify(views).list(TENANT, 2147483647L * 200, 200);
    }

    @Test
    void aTextSpanIsServedAndItsBoundsAreCheckedAgainstTheText() {
        when(documents.find(TENANT, id)).thenReturn(Optional.of(info(DocumentStatus.READY)));
        when(documents.text(id)).thenReturn(TEXT);

        MvcTestResult span =
                mvc.get().uri("/v1/documents/{id}/text?start=4&end=10", id).exchange();
        assertThat(span).hasStatusOk();
        assertThat(json(span).path("text").asString()).isEqualTo("keeper");
        assertThat(json(span).path("start").asInt()).isEqualTo(4);
        assertThat(json(span).path("end").asInt()).isEqualTo(10);
        assertThat(json(mvc.get().uri("/v1/documents/{id}/text", id).exchange())
                        .path("text")
                        .asString())
                .isEqualTo(TEXT);

        assertProblem(
                mvc.get().uri("/v1/documents/{id}/text?start=-1", id).exchange(), 400, "invalid-request", "start");
        assertProblem(
                mvc.get().uri("/v1/documents/{id}/text?start=25", id).exchange(), 400, "invalid-request", "start");
        assertProblem(
                mvc.get().uri("/v1/documents/{id}/text?start=4&end=3", id).exchange(), 400, "invalid-request", "end");
        assertProblem(mvc.get().uri("/v1/documents/{id}/text?end=25", id).exchange(), 400, "invalid-request", "end");
        assertProblem(mvc.get().uri("/v1/documents/{id}/text?end=ten", id).exchange(), 400, "invalid-request", "end");
    }

    @Test
    void theTextOfADocumentNotFoundIsNeverRead() {
        when(documents.find(TENANT, id)).thenReturn(Optional.empty());

        assertProblem(mvc.get().uri("/v1/documents/{id}/text?start=0&end=1", id).exchange(), 404, "not-found", null);
        assertProblem(mvc.get().uri("/v1/documents/{id}/turns", id).exchange(), 404, "not-found", null);

        verify(documents, never()).text(any());
        verify(views, never()).turns(any());
    }

    @Test
    void aJsonDocumentReachesIntakeAsSentAndIsAcceptedWithItsLocation() {
        when(intake.create(any())).thenReturn(new Accepted(id, DocumentStatus.QUEUED, true));

        MvcTestResult result = mvc.post()
                .uri("/v1/documents")
                .contentType(MediaType.APPLICATION_JSON)
                .content("""
                {"title": "Lighthouse log", "text": "The keeper lit the lamp.", "metadata": {"shelf": 3}, "profile": "retrieval-only"}""")
                .exchange();

        assertThat(result).hasStatus(202).hasHeader("Location", "/v1/documents/" + id);
        assertThat(json(result).path("id").asString()).isEqualTo(id.toString());
        assertThat(json(result).path("status").asString()).isEqualTo("QUEUED");
        ArgumentCaptor<CreateDocument> sent = ArgumentCaptor.forClass(CreateDocument.class);
        verify(intake).create(sent.capture());
        assertThat(sent.getValue())
                .isEqualTo(new CreateDocument("Lighthouse log", TEXT, null, Map.of("shelf", 3), "retrieval-only"));
    }

    @Test
    void contentAlreadyStoredIs200WithTheStoredDocumentsLocation() {
        when(intake.create(any())).thenReturn(new Accepted(id, DocumentStatus.READY, false));

        MvcTestResult result = mvc.post()
                .uri("/v1/documents")
                .contentType(MediaType.APPLICATION_JSON)
                .content("{\"text\": \"again\"}")
                .exchange();

        assertThat(result).hasStatusOk().hasHeader("Location", "/v1/documents/" + id);
        assertThat(json(result).path("created").asBoolean()).isFalse();
    }

    @Test
    void bodiesThatDoNotBindAreProblemsNamingWhereTheyBroke() {
        assertProblem(
                postJson("{\"title\": \"x\", \"text\": \"ok\", \"metadata\": 7}"),
                400,
                "malformed-request",
                "metadata");
        assertProblem(
                postJson("{\"text\": \"ok\", \"sessions\": [{\"turns\": \"hi\"}]}"),
                400,
                "malformed-request",
                "sessions[0].turns");
        assertProblem(postJson("{\"title\": \"x\", \"text\": "), 400, "malformed-request", "text");
        JsonNode notUtf8 = assertProblem(
                mvc.post()
                        .uri("/v1/documents")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"text\": \"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1))
                        .exchange(),
                400,
                "malformed-request",
                "text");
        assertThat(notUtf8.path("detail").asString()).containsIgnoringCase("UTF-8");

        verifyNoInteractions(intake);
    }

    @Test
    void textThatCannotBeStoredIsRefusedBeforeIntakeNamingItsPath() {
        assertProblem(postJson("{\"text\": \"before\\u0000after\"}"), 400, "invalid-request", "text");
        assertProblem(postJson("""
                {"sessions": [{"turns": [{"speaker": "Ann", "text": "fine"}, {"speaker": "Bob", "text": "lone \\ud800"}]}]}"""), 400, "invalid-request", "sessions[0].turns[1].text");
        assertProblem(
                postJson("{\"text\": \"ok\", \"metadata\": {\"tags\": [\"a\", \"b\\u0000\"]}}"),
                400,
                "invalid-request",
                "metadata.tags[1]");

        verifyNoInteractions(intake);
    }

    @Test
    void whatIntakeRefusesKeepsItsFieldInTheProblem() {
        when(intake.create(any()))
                .thenThrow(ApiProblem.invalid("sessions[0].turns[1].speaker", "speaker must not be blank"));

        JsonNode problem =
                assertProblem(postJson("{\"sessions\": []}"), 400, "invalid-request", "sessions[0].turns[1].speaker");

        assertThat(problem.path("errors").path(0).path("message").asString()).isEqualTo("speaker must not be blank");
    }

    @Test
    void documentsTakeJsonOnly() {
        assertProblem(
                mvc.post()
                        .uri("/v1/documents")
                        .contentType(MediaType.TEXT_PLAIN)
                        .content(TEXT)
                        .exchange(),
                415,
                "unsupported-media-type",
                null);
        verifyNoInteractions(intake);
    }

    @Test
    void anUploadReachesIntakeWithItsNameBytesAndFields() {
        byte[] bytes = "# Log\n\nThe keeper lit the lamp.".getBytes(StandardCharsets.UTF_8);
        when(intake.createFromUpload(any(), any(), any(), any(), any()))
                .thenReturn(new Accepted(id, DocumentStatus.QUEUED, true));

        MvcTestResult result = mvc.post()
                .uri("/v1/documents/files")
                .multipart()
                .file(new MockMultipartFile("file", "log.MD", "text/markdown; charset=UTF-8", bytes))
                .param("title", "Log")
                .param("metadata", "{\"shelf\": 3}")
                .exchange();

        assertThat(result).hasStatus(202).hasHeader("Location", "/v1/documents/" + id);
        verify(intake).createFromUpload("log.MD", bytes, "Log", null, "{\"shelf\": 3}");
    }

    @Test
    void uploadsOfFormatsNotAcceptedAreRefusedNamingTheFile() {
        byte[] bytes = "%PDF-1.7".getBytes(StandardCharsets.UTF_8);
        assertProblem(
                mvc.post()
                        .uri("/v1/documents/files")
                        .multipart()
                        .file(new MockMultipartFile("file", "log.rar", "application/vnd.rar", bytes))
                        .exchange(),
                415,
                "unsupported-media-type",
                "file");
        assertProblem(
                mvc.post()
                        .uri("/v1/documents/files")
                        .multipart()
                        .file(new MockMultipartFile("file", "log.txt", "image/png", bytes))
                        .exchange(),
                415,
                "unsupported-media-type",
                "file");
        assertProblem(
                mvc.post()
                        .uri("/v1/documents/files")
                        .multipart()
                        .file(new MockMultipartFile("upload", "log.txt", "text/plain", bytes))
                        .exchange(),
                400,
                "invalid-request",
                "file");

        verifyNoInteractions(intake);
    }

    @Test
    void deletingIs204OrA404WhenThereIsNothingToDelete() {
        UUID absent = UUID.randomUUID();
        when(intake.delete(id)).thenReturn(true);
        when(intake.delete(absent)).thenReturn(false);

        assertThat(mvc.delete().uri("/v1/documents/{id}", id).exchange()).hasStatus(204);
        assertProblem(mvc.delete().uri("/v1/documents/{id}", absent).exchange(), 404, "not-found", null);
    }

    @Test
    void appendedSessionsReachTheAppenderAsSent() {
        when(appender.append(eq(id), any())).thenReturn(new SessionsAppended(id, DocumentStatus.QUEUED, List.of()));

        MvcTestResult result = mvc.post()
                .uri("/v1/documents/{id}/sessions", id)
                .contentType(MediaType.APPLICATION_JSON)
                .content("""
                {"sessions": [{"dateTime": "2 May 2023", "turns": [{"speaker": "Ann", "text": "Miso caught a mouse."}]}]}""")
                .exchange();

        assertThat(result).hasStatus(202).hasHeader("Location", "/v1/documents/" + id);
        ArgumentCaptor<AppendSessions> sent = ArgumentCaptor.forClass(AppendSessions.class);
        verify(appender).append(eq(id), sent.capture());
        assertThat(sent.getValue().sessions()).singleElement().satisfies(session -> {
            assertThat(session.dateTime()).isEqualTo("2 May 2023");
            assertThat(session.turns())
                    .singleElement()
                    .satisfies(turn -> assertThat(turn.text()).isEqualTo("Miso caught a mouse."));
        });
    }

    @Test
    void reindexPassesTheNamedStagesOrNoneAndAConflictIs409() {
        when(documents.find(TENANT, id)).thenReturn(Optional.of(info(DocumentStatus.QUEUED)));

        assertThat(mvc.post().uri("/v1/documents/{id}/reindex", id).exchange())
                .hasStatus(202)
                .hasHeader("Location", "/v1/documents/" + id);
        verify(intake).reindex(id, null);
        assertThat(mvc.post()
                        .uri("/v1/documents/{id}/reindex", id)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"stages\": [\"embed\", \"memos\"]}")
                        .exchange())
                .hasStatus(202);
        verify(intake).reindex(id, List.of("embed", "memos"));

        doThrow(ApiProblem.conflict("ingestion-running", "Ingestion running", "document is being ingested", null))
                .when(intake)
                .reindex(id, null);
        assertProblem(mvc.post().uri("/v1/documents/{id}/reindex", id).exchange(), 409, "ingestion-running", null);
    }

    private MvcTestResult postJson(String body) {
        return mvc.post()
                .uri("/v1/documents")
                .contentType(MediaType.APPLICATION_JSON)
                .content(body)
                .exchange();
    }

    private DocumentInfo info(DocumentStatus status) {
        return new DocumentInfo(
                id, TENANT, "Lighthouse log", DocumentKind.TEXT, IndexProfiles.STANDARD, status, TEXT.length(), 6, 1);
    }
}
