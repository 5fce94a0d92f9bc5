package io.lorekeeper.question;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.lorekeeper.llm.LlmUsage;
import io.lorekeeper.platform.ApiDocs;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.platform.LocationResponse;
import io.lorekeeper.question.QuestionApi.QuestionView;
import io.lorekeeper.security.CurrentTenant;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

@RestController
@Tag(
        name = "Threads",
        description = "Questions asked one after another: each follow-up is read in the light of the earlier turns")
class ThreadController {

    private static final int MAX_TITLE = 200;
    private static final int LISTED = 100;

    private final ThreadStore threads;
    private final QuestionStore questions;
    private final CurrentTenant tenant;
    private final LlmUsage usage;

    ThreadController(ThreadStore threads, QuestionStore questions, CurrentTenant tenant, LlmUsage usage) {
        this.threads = threads;
        this.questions = questions;
        this.tenant = tenant;
        this.usage = usage;
    }

    @Schema(name = "CreateThreadRequest", description = "A new thread; every field may be left out")
    record CreateRequest(
            @Schema(description = "A name to show for the thread", maxLength = MAX_TITLE)
            String title) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(
            name = "QuestionThread",
            description = "A thread and, when read alone, its questions in the order they were asked")
    record ThreadView(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            UUID id,

            String title,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            Instant createdAt,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Questions asked in it so far")
            int questionCount,

            @Schema(description = "GET /v1/threads/{id} only: its questions, oldest first")
            List<QuestionView> questions,

            Map<String, String> links) {}

    @Schema(name = "ThreadList", description = "The caller's threads, newest first (at most 100)")
    record ThreadList(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            List<ThreadView> threads) {}

    @PostMapping("/v1/threads")
    @Operation(
            operationId = "createThread",
            summary = "Start a thread",
            description = "Questions asked with its `threadId` are follow-ups: each is rewritten into a question that"
                    + " stands on its own from the thread's earlier questions and answers before it is answered.")
    @LocationResponse(code = "201", description = "Created")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    ResponseEntity<ThreadView> create(@RequestBody(required = false) CreateRequest request) {
        String title = request == null || request.title() == null
                ? null
                : request.title().strip();
        if (title != null && title.length() > MAX_TITLE) {
            throw ApiProblem.invalid("title", "title must be at most " + MAX_TITLE + " characters");
        }
        ThreadStore.StoredThread thread = threads.create(tenant.id(), title == null || title.isEmpty() ? null : title);
        return ResponseEntity.created(URI.create("/v1/threads/" + thread.id())).body(view(thread, null));
    }

    @GetMapping("/v1/threads")
    @Operation(
            operationId = "listThreads",
            description =
                    "Each thread's id, title, creation time and how many questions were asked in it; another tenant's threads are never listed.",
            summary = "The caller's threads, newest first")
    @ApiResponse(responseCode = "200", description = "The threads")
    ThreadList list() {
        return new ThreadList(threads.list(tenant.id(), LISTED).stream()
                .map(t -> view(t, null))
                .toList());
    }

    @GetMapping("/v1/threads/{id}")
    @Operation(
            operationId = "getThread",
            summary = "A thread with its questions and answers, oldest first",
            description = "Each follow-up shows the standalone question it was answered as (`rewrite`).")
    @ApiResponse(responseCode = "200", description = "The thread")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    ThreadView get(@PathVariable UUID id) {
        ThreadStore.StoredThread thread =
                threads.find(tenant.id(), id).orElseThrow(() -> ApiProblem.notFound("Thread", id));
        List<QuestionView> asked = threads.questionIds(id).stream()
                .map(q -> questions.find(tenant.id(), q))
                .flatMap(java.util.Optional::stream)
                .map(q -> QuestionViews.view(q, usage))
                .toList();
        return view(thread, asked);
    }

    @DeleteMapping("/v1/threads/{id}")
    @Operation(
            operationId = "deleteThread",
            description =
                    "The thread's questions (and their traces) are deleted with it; another tenant's thread is a 404, as one that never existed.",
            summary = "Delete a thread with its questions and their traces")
    @ApiResponse(responseCode = "204", description = "Deleted")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    ResponseEntity<Void> delete(@PathVariable UUID id) {
        if (!threads.delete(tenant.id(), id)) {
            throw ApiProblem.notFound("Thread", id);
        }
        return ResponseEntity.noContent().build();
    }

    private static ThreadView view(ThreadStore.StoredThread thread, List<QuestionView> questions) {
        return new ThreadView(
                thread.id(),
                thread.title(),
                thread.createdAt(),
                thread.questions(),
                questions,
                Map.of("self", "/v1/threads/" + thread.id()));
    }
}
