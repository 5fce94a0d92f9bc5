package io.lorekeeper.document;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.servlet.ServletContext;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.Api.Response;
import io.lorekeeper.support.IntegrationTest;
import io.lorekeeper.support.TestFiles;
import tools.jackson.databind.JsonNode;

/**
 * Files as people have them, over HTTP: a PDF, a DOCX, an EPUB and an HTML page, each uploaded,
 * ingested and asked about with the extractive strategy; the citation's quote is the canonical text
 * at its offsets and names the page (PDF) or the section (headings).
 */
@IntegrationTest
class FileUploadApiTest {

    @Autowired
    Api api;

    @Autowired
    ServletContext servletContext;

    @Test
    void aPdfIsCitedWithItsPage() {
        byte[] pdf = TestFiles.pdf(List.of(
                List.of(
                        "Agnes Brodie kept the lamp at Skerry Point for forty-one winters.",
                        "She logged every ship that passed the exam-",
                        "ple rock in a green ledger."),
                List.of(
                        "In 1887 the schooner Marigold struck the rocks below the tower.",
                        "Agnes rowed out alone in the storm and saved six sailors."),
                List.of("The Board of Northern Lights gave her a silver medal.", "She retired to Oban in 1902.")));

        JsonNode doc = upload("skerry-report.pdf", "application/pdf", pdf);

        assertThat(doc.get("file").get("mediaType").asString()).isEqualTo("application/pdf");
        assertThat(doc.get("file").get("size").asLong()).isEqualTo(pdf.length);
        assertThat(doc.get("file").get("sha256").asString()).hasSize(64);
        String text = text(doc);
        assertThat(text).doesNotContain(TestFiles.RUNNING_HEADER).doesNotContain("Page 1");
        assertThat(text).contains("passed the example rock");
        List<JsonNode> pages = sections(doc);
        assertThat(pages).extracting(p -> p.get("page").asInt()).containsExactly(1, 2, 3);

        JsonNode citation = cite(doc, "Who rowed out alone in the storm and saved six sailors?", "rowed out alone");
        assertThat(citation.get("page").asInt()).isEqualTo(2);
    }

    @Test
    void aDocxIsCitedWithItsSection() {
        byte[] docx = TestFiles.docx(List.of(
                "# The Keeper",
                "Agnes Brodie kept the lamp at Skerry Point for forty-one winters.",
                "## The Wreck of the Marigold",
                "In 1887 the schooner Marigold struck the rocks and Agnes rowed out alone to save six sailors.",
                "# The Medal",
                "The Board of Northern Lights gave her a silver medal in 1888."));

        JsonNode doc =
                upload("keeper.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", docx);

        assertThat(sections(doc))
                .extracting(s -> s.get("title").asString())
                .containsExactly("The Keeper", "The Wreck of the Marigold", "The Medal");
        JsonNode citation = cite(doc, "Who rowed out alone to save six sailors?", "rowed out alone");
        assertThat(citation.get("section").asString()).isEqualTo("The Wreck of the Marigold");
        assertThat(citation.has("page")).isFalse();
    }

    @Test
    void anEpubIsCitedWithItsChapter() {
        byte[] epub = TestFiles.epub(
                List.of("Chapter One: The Lamp", "Chapter Two: The Storm"),
                List.of(
                        "Agnes Brodie kept the lamp at Skerry Point for forty-one winters.",
                        "In 1887 the schooner Marigold struck the rocks and Agnes rowed out alone to save six sailors."));

        JsonNode doc = upload("keeper.epub", "application/epub+zip", epub);

        JsonNode citation = cite(doc, "Who rowed out alone to save six sailors?", "rowed out alone");
        assertThat(citation.get("section").asString()).isEqualTo("Chapter Two: The Storm");
    }

    @Test
    void anHtmlPageIsCitedWithItsSection() {
        byte[] html = TestFiles.html(
                "Lights of the North",
                List.of("Lights of the North", "Skerry Point"),
                List.of(
                        "The northern lighthouses were built by the Stevenson family.",
                        "At Skerry Point, Agnes Brodie rowed out alone to save six sailors in 1887."));

        JsonNode doc = upload("lights.html", "text/html", html);

        assertThat(text(doc)).doesNotContain("not text");
        JsonNode citation = cite(doc, "Who rowed out alone to save six sailors?", "rowed out alone");
        assertThat(citation.get("section").asString()).isEqualTo("Skerry Point");
    }

    /**
     * A real PDF, not one written by the test: the README walkthrough's file. Its text layer comes
     * from a typesetter (ligatures, running heads, numbered pages), which generated PDFs do not have.
     */
    @Test
    void aRealSpecificationIsCitedWithItsPage() throws Exception {
        byte[] pdf;
        try (var in = getClass().getResourceAsStream("/files/shared-mime-info-spec.pdf")) {
            pdf = in.readAllBytes();
        }

        JsonNode doc = upload("shared-mime-info-spec.pdf", "application/pdf", pdf);

        assertThat(sections(doc))
                .hasSize(17)
                .allSatisfy(s -> assertThat(s.get("kind").asString()).isEqualTo("page"));
        JsonNode citation = cite(doc, "Where are the MIME type database files installed?", "packages/ directories");
        assertThat(citation.get("page").asInt()).isEqualTo(3);
        int start = citation.get("start").asInt();
        JsonNode third = sections(doc).get(2);
        assertThat(start).isBetween(third.get("start").asInt(), third.get("end").asInt());
    }

    @Test
    void aFileNameIsKeptAsADisplayNameNeverAPath() {
        Response uploaded = api.upload(
                "/v1/documents/files",
                "../../../../etc/" + "a".repeat(600) + "\u0007.txt",
                "text/plain",
                ("Display names " + UUID.randomUUID() + " keep no path.").getBytes(StandardCharsets.UTF_8),
                Map.of("profile", "retrieval-only"));

        assertThat(uploaded.status()).as(uploaded.body()).isEqualTo(202);
        JsonNode doc =
                api.get("/v1/documents/" + uploaded.json().get("id").asString()).json();
        assertThat(doc.get("file").get("name").asString()).isEqualTo("a".repeat(251) + ".txt");
        assertThat(doc.get("title").asString()).isEqualTo("a".repeat(251));
    }

    /**
     * Parts are held in memory: an upload that stops halfway (a client that never finishes its
     * request) leaves no temporary file behind, while it hangs or after its connection is gone.
     */
    @Test
    void anUploadThatNeverEndsLeavesNoTemporaryFile() throws Exception {
        File temp = (File) servletContext.getAttribute(ServletContext.TEMPDIR);
        Set<Path> before = filesUnder(temp.toPath());
        String boundary = "lk-stalled";
        byte[] start = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"half.txt\"\r\n"
                        + "Content-Type: text/plain\r\n\r\n" + "half of a file ".repeat(20_000))
                .getBytes(StandardCharsets.US_ASCII);
        try (Socket socket = new Socket("localhost", api.uri("/").getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/documents/files HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; "
                            + "boundary=" + boundary + "\r\nContent-Length: " + (start.length * 2) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(start);
            out.flush();
            Thread.sleep(1_500);

            assertThat(filesUnder(temp.toPath())).as("while the upload hangs").isEqualTo(before);
        }
        Thread.sleep(1_000);
        assertThat(filesUnder(temp.toPath())).as("after its connection closed").isEqualTo(before);
    }

    private static Set<Path> filesUnder(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).collect(Collectors.toSet());
        }
    }

    private JsonNode upload(String name, String type, byte[] content) {
        Response uploaded = api.upload("/v1/documents/files", name, type, content, Map.of("profile", "retrieval-only"));
        assertThat(uploaded.status()).as(uploaded.body()).isEqualTo(202);
        UUID id = UUID.fromString(uploaded.json().get("id").asString());
        api.awaitDocument(id, "READY", Duration.ofMinutes(2));
        return api.get("/v1/documents/" + id).json();
    }

    private String text(JsonNode doc) {
        return api.get("/v1/documents/" + doc.get("id").asString() + "/text")
                .json()
                .get("text")
                .asString();
    }

    private static List<JsonNode> sections(JsonNode doc) {
        List<JsonNode> sections = new ArrayList<>();
        doc.get("sections").forEach(sections::add);
        return sections;
    }

    /** Asks with the extractive strategy; every citation's quote is the text at its offsets. Returns the one quoting {@code words}. */
    private JsonNode cite(JsonNode doc, String question, String words) {
        String id = doc.get("id").asString();
        JsonNode answer = api.ask(Map.of("documentIds", List.of(id), "question", question, "strategy", "extractive"));
        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        String text = text(doc);
        JsonNode found = null;
        for (JsonNode citation : answer.get("citations")) {
            assertThat(citation.get("quote").asString())
                    .isEqualTo(text.substring(
                            citation.get("start").asInt(), citation.get("end").asInt()));
            if (citation.get("quote").asString().contains(words)) {
                found = citation;
            }
        }
        assertThat(found).as(answer.toString()).isNotNull();
        return found;
    }
}
