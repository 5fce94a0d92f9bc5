package io.lorekeeper.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openapitools.codegen.ClientOptInput;
import org.openapitools.codegen.DefaultGenerator;
import org.openapitools.codegen.config.CodegenConfigurator;

import io.lorekeeper.support.BuildDirectory;
import io.swagger.parser.OpenAPIParser;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;

/**
 * api/openapi.yaml as users meet it: read by swagger-parser (the parser every openapi-generator
 * generator uses) and fed to the generators users pick, with default validation on.
 */
class ClientGeneratorsTest {

    private static final Path SPEC = Path.of("api", "openapi.yaml");

    @Test
    void theSpecParsesWithoutAMessage() {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult result = new OpenAPIParser().readLocation(SPEC.toString(), null, options);

        assertThat(result.getMessages()).isEmpty();
        OpenAPI api = result.getOpenAPI();
        assertThat(api.getInfo().getLicense().getIdentifier()).isEqualTo("Apache-2.0");
        assertThat(api.getServers()).isNotEmpty();
        Set<String> ids = new TreeSet<>();
        api.getPaths()
                .values()
                .forEach(path -> path.readOperations().stream()
                        .map(Operation::getOperationId)
                        .forEach(ids::add));
        assertThat(ids)
                .contains(
                        "createDocument",
                        "uploadDocumentFile",
                        "listDocuments",
                        "getDocument",
                        "deleteDocument",
                        "getDocumentText",
                        "listTurns",
                        "getDocumentGraph",
                        "appendSessions",
                        "reindexDocument",
                        "searchDocuments",
                        "askQuestion",
                        "getQuestion",
                        "getQuestionTrace",
                        "streamQuestionEvents",
                        "retryQuestion",
                        "listStrategies",
                        "startEvaluation",
                        "getEvaluation",
                        "retryEvaluation",
                        "getUsage");
        // Every operation answers JSON (or its event stream) and documents its refusals as problems.
        api.getPaths()
                .forEach((path, item) -> item.readOperations()
                        .forEach(op -> op.getResponses().forEach((code, response) -> {
                            if (response.get$ref() != null) {
                                assertThat(response.get$ref())
                                        .as("%s %s", op.getOperationId(), code)
                                        .startsWith("#/components/responses/");
                            } else if (code.startsWith("2") && response.getContent() != null) {
                                assertThat(response.getContent().keySet())
                                        .as("%s %s", op.getOperationId(), code)
                                        .allMatch(type ->
                                                type.equals("application/json") || type.equals("text/event-stream"));
                            } else if (code.startsWith("4")) {
                                assertThat(response.getContent().keySet())
                                        .as("%s %s", op.getOperationId(), code)
                                        .containsExactly("application/problem+json");
                            }
                        })));
        assertThat(api.getComponents().getSchemas().get("Problem").getRequired())
                .containsExactlyInAnyOrder("type", "title", "status");
        assertThat(api.getComponents().getSchemas().get("CreateTextDocument").getRequired())
                .containsExactly("text");
        assertThat(api.getComponents().getSchemas().get("CreateConversation").getRequired())
                .containsExactly("sessions");
        // Primitive record components are always written, so they are required (PrimitivesRequired).
        assertThat(api.getComponents().getSchemas().get("Citation").getRequired())
                .containsExactlyInAnyOrder("documentId", "start", "end", "quote");
        assertThat(api.getComponents().getSchemas().get("Hit").getRequired()).contains("start", "end", "score", "text");
    }

    /** Every operation says what it does beyond its one-line summary. */
    @Test
    void everyOperationHasADescription() {
        OpenAPI api = new OpenAPIParser()
                .readLocation(SPEC.toString(), null, new ParseOptions())
                .getOpenAPI();
        List<String> bare = new java.util.ArrayList<>();
        api.getPaths()
                .values()
                .forEach(path -> path.readOperations().forEach(op -> {
                    if (op.getDescription() == null
                            || op.getDescription().isBlank()
                            || op.getDescription().equals(op.getSummary())) {
                        bare.add(op.getOperationId());
                    }
                }));
        assertThat(bare).as("operations without a description of their own").isEmpty();
    }

    /**
     * No request schema carries a {@code default}: openapi-typescript with its default settings makes a
     * property with one required (outside inline request bodies), so the minimal requests the docs show
     * would not type-check. The defaults are said in the descriptions instead.
     */
    @Test
    void requestSchemasSayTheirDefaultsInWordsSoThatMinimalRequestsTypeCheck() throws java.io.IOException {
        OpenAPI api = new OpenAPIParser()
                .readLocation(SPEC.toString(), null, new ParseOptions())
                .getOpenAPI();
        var schemas = api.getComponents().getSchemas();
        for (String request :
                List.of("CreateTextDocument", "CreateConversation", "AskQuestionRequest", "SearchRequest")) {
            schemas.get(request)
                    .getProperties()
                    .forEach((name, property) -> assertThat(
                                    ((io.swagger.v3.oas.models.media.Schema<?>) property).getDefault())
                            .as("%s.%s", request, name)
                            .isNull());
        }
        assertThat(((io.swagger.v3.oas.models.media.Schema<?>) schemas.get("CreateTextDocument")
                                .getProperties()
                                .get("profile"))
                        .getDescription())
                .contains("Default: `standard`");
        assertThat(schemas.get("CreateTextDocument").getRequired()).containsExactly("text");
        assertThat(schemas.get("AskQuestionRequest").getRequired()).containsExactly("question");
        // a default removed, not written as null (which openapi-typescript would still count as a default)
        assertThat(java.nio.file.Files.readString(SPEC)).doesNotContain("default: null");
    }

    /**
     * Trace events reach TypeScript users typed: the payload is the union of the event records (a type
     * per record, told apart by {@code type}), and a question's {@code waitingFor} and {@code degraded}
     * lists have item types, none of them {@code any} or {@code unknown}.
     */
    @Test
    void typeScriptTypesTraceEventsAndTheQuestionsGaps() throws Exception {
        CodegenConfigurator configurator = configurator(
                "typescript-fetch",
                BuildDirectory.PATH.resolve("generated-clients").resolve("typescript-fetch-types"));
        List<File> files =
                new DefaultGenerator().opts(configurator.toClientOptInput()).generate();

        assertThat(declaration(model(files, "TraceEvent.ts"), "export interface TraceEvent "))
                .contains("payload?: TraceEventPayload;")
                .doesNotContainPattern(UNTYPED);
        assertThat(declaration(model(files, "TraceEventPayload.ts"), "export type TraceEventPayload "))
                .contains("{ type: 'run.status' } & RunStatus")
                .contains("{ type: 'rag.retrieve' } & RagRetrieve")
                .contains("{ type: 'step.failed' } & StepFailed")
                .doesNotContainPattern(UNTYPED);
        // (its options are a free-form map: only these two members are asked about)
        assertThat(declaration(model(files, "Question.ts"), "export interface Question "))
                .contains("waitingFor?: Array<MemoryGap>;")
                .contains("degraded?: Array<Degradation>;")
                .contains("answerKind?: QuestionAnswerKindEnum;");
        // a passage answer is told apart by a typed value, not a free string
        assertThat(model(files, "Question.ts"))
                .contains("Span: 'span'")
                .contains("Passage: 'passage'")
                .contains("Generated: 'generated'");
        for (String record : List.of("RunStatus", "RunWaiting", "RunDegraded", "MemoryGap", "Degradation")) {
            assertThat(declaration(model(files, record + ".ts"), "export interface " + record + " "))
                    .as(record)
                    .doesNotContainPattern(UNTYPED);
        }
    }

    /** A member or union member typed {@code any} or {@code unknown}. */
    private static final String UNTYPED = "(:|<|\\||=)\\s*(any|unknown)\\b";

    /** The generated declaration that starts with {@code start}: an interface's body, or a type alias up to its end. */
    private static String declaration(String source, String start) {
        int from = source.indexOf(start);
        assertThat(from).as(start).isNotNegative();
        int end = start.startsWith("export type") ? source.indexOf(";\n", from) : source.indexOf("\n}", from);
        return source.substring(from, end);
    }

    private static String model(List<File> files, String name) throws java.io.IOException {
        File file = files.stream()
                .filter(f -> f.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " was not generated"));
        return Files.readString(file.toPath());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "java, native, DocumentsApi.java, createDocument(",
        "java, restclient, DocumentsApi.java, uploadDocumentFile(",
        "typescript-fetch, , DocumentsApi.ts, async createDocument("
    })
    void generatesWithDefaultValidation(String generator, String library, String apiFile, String method)
            throws Exception {
        Path out = BuildDirectory.PATH
                .resolve("generated-clients")
                .resolve(generator + (library == null ? "" : "-" + library));
        CodegenConfigurator configurator = configurator(generator, out);
        if (library != null) {
            configurator.setLibrary(library);
        }
        // Validation is on by default: an invalid spec throws here, as it stops the user's build.
        ClientOptInput input = configurator.toClientOptInput();

        List<File> files = new DefaultGenerator().opts(input).generate();

        File api = files.stream()
                .filter(f -> f.getName().equals(apiFile))
                .findFirst()
                .orElseThrow();
        String source = Files.readString(api.toPath());
        assertThat(source).contains(method).contains("uploadDocumentFile").contains("getDocumentText");
        assertThat(files.stream().map(File::getName).filter(Objects::nonNull))
                .anyMatch(name -> name.startsWith("Problem."))
                .anyMatch(name -> name.startsWith("CreateTextDocument."));
    }

    /** The generator on the spec, writing into {@code out}: sources only, no tests or docs. */
    private static CodegenConfigurator configurator(String generator, Path out) {
        return new CodegenConfigurator()
                .setGeneratorName(generator)
                .setInputSpec(SPEC.toString())
                .setOutputDir(out.toString())
                .addGlobalProperty("apiTests", "false")
                .addGlobalProperty("modelTests", "false")
                .addGlobalProperty("apiDocs", "false")
                .addGlobalProperty("modelDocs", "false");
    }
}
