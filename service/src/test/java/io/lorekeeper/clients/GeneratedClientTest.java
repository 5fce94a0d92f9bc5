package io.lorekeeper.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Value;

import io.lorekeeper.client.ApiClient;
import io.lorekeeper.client.ApiException;
import io.lorekeeper.client.ApiResponse;
import io.lorekeeper.client.api.DocumentsApi;
import io.lorekeeper.client.api.QuestionsApi;
import io.lorekeeper.client.api.SearchApi;
import io.lorekeeper.client.model.AskQuestionRequest;
import io.lorekeeper.client.model.Citation;
import io.lorekeeper.client.model.CreateConversation;
import io.lorekeeper.client.model.CreateDocumentRequest;
import io.lorekeeper.client.model.CreateTextDocument;
import io.lorekeeper.client.model.Document;
import io.lorekeeper.client.model.DocumentAccepted;
import io.lorekeeper.client.model.ExtractiveAnswer;
import io.lorekeeper.client.model.ExtractivePassages;
import io.lorekeeper.client.model.Hit;
import io.lorekeeper.client.model.Problem;
import io.lorekeeper.client.model.Question;
import io.lorekeeper.client.model.QuestionTrace;
import io.lorekeeper.client.model.RunStatus;
import io.lorekeeper.client.model.SearchRequest;
import io.lorekeeper.client.model.SearchResponse;
import io.lorekeeper.client.model.Session;
import io.lorekeeper.client.model.TraceEvent;
import io.lorekeeper.client.model.Turn;
import io.lorekeeper.client.model.TurnSpan;
import io.lorekeeper.support.IntegrationTest;

/**
 * The whole flow of a new user, through the Java client generated from api/openapi.yaml by the build
 * (openapi-generator, library native, default settings) and nothing else: if the spec stops
 * producing a client that works as generated, this fails.
 */
@IntegrationTest
class GeneratedClientTest {

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);

    @Value("${local.server.port}")
    int port;

    ApiClient client;
    DocumentsApi documents;
    QuestionsApi questions;
    SearchApi search;

    @BeforeEach
    void connect() {
        client = new ApiClient();
        client.updateBaseUri("http://localhost:" + port);
        documents = new DocumentsApi(client);
        questions = new QuestionsApi(client);
        search = new SearchApi(client);
    }

    @Test
    void runsTheWholeFlowThroughGeneratedMethodsOnly(@TempDir Path dir) throws Exception {
        String marker = UUID.randomUUID().toString();
        String text = "Harbour log " + marker + ".\nThe keeper of the Skerry light lit the lamp at dusk every evening. "
                + "A schooner named Marigold passed the northern rocks at nine. The keeper wrote its name in the log.";

        ApiResponse<DocumentAccepted> created =
                documents.createDocumentWithHttpInfo(new CreateDocumentRequest(new CreateTextDocument()
                        .title("Skerry log")
                        .text(text)
                        .profile(CreateTextDocument.ProfileEnum.RETRIEVAL_ONLY)));
        assertThat(created.getStatusCode()).isEqualTo(202);
        UUID textId = created.getData().getId();
        assertThat(created.getHeaders().get("location")).containsExactly("/v1/documents/" + textId);

        DocumentAccepted conversation = documents.createDocument(new CreateDocumentRequest(new CreateConversation()
                .title("Chat " + marker)
                .sessions(List.of(new Session()
                        .dateTime("1:56 pm on 8 May, 2023")
                        .turns(List.of(
                                new Turn()
                                        .speaker("Caroline")
                                        .text("I adopted a dog named Biscuit last week! " + marker),
                                new Turn().speaker("Mel").text("Congratulations, what breed is Biscuit?")))))
                .profile(CreateConversation.ProfileEnum.RETRIEVAL_ONLY)));
        assertThat(conversation.getCreated()).isTrue();

        Path file = dir.resolve("ferry-notes.md");
        Files.writeString(
                file,
                "# Ferry notes " + marker + "\n\nThe ferry to Inchmurrin leaves at seven.",
                StandardCharsets.UTF_8);
        DocumentAccepted uploaded =
                documents.uploadDocumentFile(file.toFile(), null, "retrieval-only", "{\"source\": \"e2e\"}");

        Document textDoc = awaitReady(textId);
        awaitReady(conversation.getId());
        Document upload = awaitReady(uploaded.getId());
        assertThat(textDoc.getKind().getValue()).isEqualTo("TEXT");
        assertThat(upload.getTitle()).isEqualTo("ferry-notes");
        assertThat(upload.getMetadata()).containsEntry("source", "e2e");
        assertThat(documents.listDocuments(0, 200).getItems())
                .extracting(Document::getId)
                .contains(textId, conversation.getId(), uploaded.getId());
        List<TurnSpan> turns = documents.listTurns(conversation.getId());
        assertThat(turns).extracting(TurnSpan::getTurnId).containsExactly("D1:1", "D1:2");
        assertThat(documents
                        .getDocumentText(
                                conversation.getId(),
                                turns.getFirst().getStart(),
                                turns.getFirst().getEnd())
                        .getText())
                .startsWith("Caroline: I adopted a dog named Biscuit");

        SearchResponse found = search.searchDocuments(new SearchRequest()
                .documentIds(List.of(textId))
                .query("schooner Marigold")
                .k(3));
        assertThat(found.getHits()).isNotEmpty();
        for (Hit hit : found.getHits()) {
            assertThat(documents
                            .getDocumentText(textId, hit.getStart(), hit.getEnd())
                            .getText())
                    .isEqualTo(hit.getText());
        }

        // Waiting: the answer comes back in the same call.
        ApiResponse<Question> waited = questions.askQuestionWithHttpInfo(new AskQuestionRequest()
                .documentIds(List.of(textId))
                .question("What was the schooner called?")
                .strategy("extractive")
                // a short answer whenever one is found, however unsure
                .options(Map.of("shortAnswerConfidence", 0))
                .waitSeconds(30));
        assertThat(waited.getStatusCode()).isEqualTo(200);
        Question answered = waited.getData();
        assertThat(answered.getStatus()).isEqualTo(Question.StatusEnum.DONE);
        assertThat(answered.getMode()).isEqualTo("extractive");
        assertThat(answered.getAnswerKind()).isEqualTo(Question.AnswerKindEnum.SPAN);
        assertThat(answered.getAnswer()).contains("Marigold");
        assertCitationsQuoteTheSource(answered);

        // Not waiting: 202 and a Location to follow; the event stream then runs to its end frame.
        ApiResponse<Question> queued = questions.askQuestionWithHttpInfo(new AskQuestionRequest()
                .documentIds(List.of(conversation.getId()))
                .question("What is the name of Caroline's dog?")
                .strategy("extractive")
                // never a short answer: the passages to read
                .options(Map.of("shortAnswerConfidence", 1)));
        UUID questionId = queued.getData().getId();
        assertThat(queued.getStatusCode()).isIn(200, 202);
        assertThat(queued.getHeaders().get("location")).containsExactly("/v1/questions/" + questionId);
        File stream = questions.streamQuestionEvents(questionId, null);
        List<Frame> frames = frames(Files.readString(stream.toPath(), StandardCharsets.UTF_8));
        assertThat(frames.getLast().event()).isEqualTo("end");
        assertThat(frames.getLast().data()).contains("\"DONE\"");

        Question polled = questions.getQuestion(questionId);
        assertThat(polled.getStatus()).isEqualTo(Question.StatusEnum.DONE);
        assertThat(polled.getAnswerKind()).isEqualTo(Question.AnswerKindEnum.PASSAGE);
        assertThat(polled.getAnswer()).contains("Biscuit");
        assertCitationsQuoteTheSource(polled);
        assertThat(polled.getCitations()).extracting(Citation::getTurnId).contains("D1:1");

        QuestionTrace trace = questions.getQuestionTrace(questionId);
        assertThat(trace.getEvents()).isNotEmpty();
        assertThat(trace.getEvents()).extracting(TraceEvent::getSeq).isSorted();
        // Every trace event went out as one frame, in order, with its seq as the SSE id and its type as the event name.
        List<Frame> eventFrames = frames.subList(0, frames.size() - 1);
        assertThat(eventFrames)
                .extracting(Frame::id)
                .containsExactlyElementsOf(trace.getEvents().stream()
                        .map(e -> String.valueOf(e.getSeq()))
                        .toList());
        assertThat(eventFrames)
                .extracting(Frame::event)
                .containsExactlyElementsOf(
                        trace.getEvents().stream().map(TraceEvent::getType).toList());
        // Payloads are typed: each is the generated class of its event record, in the trace and in the frames.
        RunStatus running = trace.getEvents().getFirst().getPayload().getRunStatus();
        assertThat(running.getStatus()).isEqualTo(RunStatus.StatusEnum.RUNNING);
        assertThat(running.getStrategy()).isEqualTo("extractive");
        assertThat(trace.getEvents())
                .extracting(e -> e.getPayload().getActualInstance())
                .filteredOn(ExtractivePassages.class::isInstance)
                .singleElement()
                .satisfies(p -> assertThat(((ExtractivePassages) p).getPassages())
                        .isEqualTo(polled.getCitations().size()));
        assertThat(trace.getEvents())
                .extracting(e -> e.getPayload().getActualInstance())
                .as("the short answer found, withheld")
                .filteredOn(ExtractiveAnswer.class::isInstance)
                .hasSize(1);
        TraceEvent streamed =
                client.getObjectMapper().readValue(eventFrames.getLast().data(), TraceEvent.class);
        assertThat(streamed.getPayload().getActualInstance()).isInstanceOf(RunStatus.class);
        assertThat(streamed.getPayload().getRunStatus().getStatus()).isEqualTo(RunStatus.StatusEnum.DONE);

        assertThat(questions.listStrategies()).anySatisfy(s -> {
            assertThat(s.getName()).isEqualTo("extractive");
            assertThat(s.getAvailable()).isTrue();
        });

        documents.deleteDocument(uploaded.getId());
        Problem gone = problem(() -> documents.getDocument(uploaded.getId()), 404);
        assertThat(gone.getType().toString()).endsWith("/not-found");
    }

    @Test
    void errorsArriveAsTypedProblemsNamingTheField(@TempDir Path dir) throws Exception {
        Problem blank = problem(
                () -> documents.createDocument(new CreateDocumentRequest(new CreateTextDocument().text("   \n "))),
                400);
        assertThat(blank.getField()).isEqualTo("text");
        assertThat(blank.getErrors())
                .singleElement()
                .satisfies(e -> assertThat(e.getField()).isEqualTo("text"));
        assertThat(blank.getTitle()).isNotBlank();

        Path pdf = dir.resolve("report.pdf");
        Files.writeString(pdf, "Plain notes named as a PDF: the content does not match the name.");
        Problem unsupported = problem(() -> documents.uploadDocumentFile(pdf.toFile(), null, null, null), 415);
        assertThat(unsupported.getField()).isEqualTo("file");

        Problem badSpan = problem(
                () -> questions.askQuestion(new AskQuestionRequest()
                        .documentIds(List.of(UUID.randomUUID()))
                        .question("Anyone there?")
                        .strategy("extractive")),
                404);
        assertThat(badSpan.getStatus()).isEqualTo(404);

        Problem unknownStrategy = problem(
                () -> questions.askQuestion(new AskQuestionRequest()
                        .documentIds(List.of(UUID.randomUUID()))
                        .question("Which strategy?")
                        .strategy("no-such-strategy")),
                400);
        assertThat(unknownStrategy.getField()).isEqualTo("strategy");
        assertThat(unknownStrategy.getType().toString()).endsWith("/unknown-strategy");
    }

    private void assertCitationsQuoteTheSource(Question question) throws ApiException {
        assertThat(question.getCitations()).isNotEmpty();
        for (Citation citation : question.getCitations()) {
            assertThat(documents
                            .getDocumentText(citation.getDocumentId(), citation.getStart(), citation.getEnd())
                            .getText())
                    .isEqualTo(citation.getQuote());
        }
    }

    private Document awaitReady(UUID id) throws ApiException, InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        Document doc;
        do {
            doc = documents.getDocument(id);
            if (doc.getStatus() == Document.StatusEnum.READY) {
                return doc;
            }
            assertThat(doc.getStatus()).as("document %s", id).isNotEqualTo(Document.StatusEnum.FAILED);
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("document " + id + " not READY in time: " + doc);
    }

    private interface Call {
        void run() throws ApiException;
    }

    /** The call's failure, read as the spec's Problem with the client's own object mapper. */
    private Problem problem(Call call, int status) throws Exception {
        ApiException failure = catchThrowableOfType(ApiException.class, call::run);
        assertThat(failure).as("expected HTTP %s", status).isNotNull();
        assertThat(failure.getCode()).as(failure.getResponseBody()).isEqualTo(status);
        assertThat(failure.getResponseHeaders().firstValue("content-type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        Problem problem = client.getObjectMapper().readValue(failure.getResponseBody(), Problem.class);
        assertThat(problem.getStatus()).isEqualTo(status);
        return problem;
    }

    record Frame(String id, String event, String data) {}

    private static final Pattern LINE = Pattern.compile("^(id|event|data):\\s?(.*)$");

    /** Splits an SSE body into frames (blank-line separated), as the spec's description of the stream says. */
    private static List<Frame> frames(String body) {
        List<Frame> frames = new ArrayList<>();
        for (String block : body.replace("\r\n", "\n").split("\n\n")) {
            String id = null;
            String event = "message";
            StringBuilder data = new StringBuilder();
            for (String line : block.split("\n")) {
                Matcher m = LINE.matcher(line);
                if (!m.matches()) {
                    continue;
                }
                switch (m.group(1)) {
                    case "id" -> id = m.group(2);
                    case "event" -> event = m.group(2);
                    default -> data.append(data.isEmpty() ? "" : "\n").append(m.group(2));
                }
            }
            if (!data.isEmpty()) {
                frames.add(new Frame(id, event, data.toString()));
            }
        }
        return frames;
    }
}
