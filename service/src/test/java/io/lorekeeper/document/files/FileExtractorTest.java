package io.lorekeeper.document.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

import io.lorekeeper.document.files.ExtractedText.Section;
import io.lorekeeper.document.files.FileExtractor.Format;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.support.TestFiles;

class FileExtractorTest {

    /** One for the class: its spare extraction process serves the next test. */
    private static final FileExtractor extractor = extractor(Duration.ofSeconds(30), 2);

    /** An extractor as the service configures one, with the time and threads a test needs. */
    static FileExtractor extractor(Duration time, int threads) {
        return new FileExtractor(
                new FileLimits(DataSize.ofMegabytes(20), time, 20, threads, DataSize.ofMegabytes(256), 8),
                DataSize.ofMegabytes(20));
    }

    @AfterAll
    static void close() {
        extractor.destroy();
    }

    static final List<List<String>> PAGES = List.of(
            List.of(
                    "Agnes Brodie kept the lamp at Skerry Point.",
                    "She logged every ship that passed the exam-",
                    "ple rock."),
            List.of("In 1887 the schooner Marigold struck the rocks.", "Agnes rowed out alone and saved six sailors."),
            List.of("The Board of Northern Lights gave her a medal.", "She kept the light for forty-one winters."));

    @Test
    void aPdfBecomesCleanTextWithItsPages() {
        ExtractedText text =
                extract("report.pdf", Format.PDF, TestFiles.pdf(PAGES)).text();

        assertThat(text.text()).doesNotContain(TestFiles.RUNNING_HEADER).doesNotContain("Page 2");
        assertThat(text.text()).contains("passed the example rock.");
        List<Section> pages = text.sections();
        assertThat(pages).extracting(Section::page).containsExactly(1, 2, 3);
        assertThat(pages.get(1).span().of(text.text()))
                .startsWith("In 1887 the schooner")
                .endsWith("saved six sailors.");
    }

    @Test
    void aDocxKeepsItsHeadingsAsSections() {
        byte[] docx = TestFiles.docx(List.of(
                "# The Keeper",
                "Agnes Brodie kept the lamp.",
                "## The Wreck",
                "The Marigold struck the rocks in 1887.",
                "# The Medal",
                "The Board gave her a medal."));

        ExtractedText text = extract("keeper.docx", Format.DOCX, docx).text();

        assertThat(text.sections())
                .extracting(Section::title, Section::level)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("The Keeper", 1),
                        org.assertj.core.groups.Tuple.tuple("The Wreck", 2),
                        org.assertj.core.groups.Tuple.tuple("The Medal", 1));
        assertThat(text.sections().get(1).span().of(text.text()))
                .isEqualTo("The Wreck\n\nThe Marigold struck the rocks in 1887.");
    }

    @Test
    void anEpubKeepsItsChapters() {
        byte[] epub = TestFiles.epub(
                List.of("Chapter One", "Chapter Two"),
                List.of("Agnes Brodie kept the lamp.", "The Marigold struck the rocks."));

        ExtractedText text = extract("book.epub", Format.EPUB, epub).text();

        assertThat(text.sections()).extracting(Section::title).containsExactly("Chapter One", "Chapter Two");
        assertThat(text.sections().get(1).span().of(text.text())).contains("The Marigold struck the rocks.");
    }

    @Test
    void htmlLeavesScriptsAndStylesOut() {
        byte[] html = TestFiles.html(
                "Lights", List.of("Lights", "Skerry Point"), List.of("About lights.", "Agnes kept this one."));

        ExtractedText text = extract("lights.html", Format.HTML, html).text();

        assertThat(text.text()).doesNotContain("hidden").doesNotContain("navy");
        assertThat(text.sections()).extracting(Section::title).containsExactly("Lights", "Skerry Point");
    }

    @Test
    void refusesWhatItCannotRead() {
        assertProblem(() -> extract("secret.pdf", Format.PDF, TestFiles.pdf(PAGES, "secret")), "encrypted-file");
        assertProblem(() -> extract("scan.pdf", Format.PDF, TestFiles.scannedPdf(3)), "no-text-layer");
        assertProblem(() -> extract("report.docx", Format.DOCX, TestFiles.pdf(PAGES)), "content-mismatch");
        assertProblem(() -> extract("notes.txt", Format.TEXT, TestFiles.pdf(PAGES)), "content-mismatch");
        assertProblem(
                () -> extract("pictures.docx", Format.DOCX, TestFiles.docx(List.of("Hello there."), 25)),
                "too-many-embedded-documents");
        assertThat(extract("notes.txt", Format.TEXT, "plain".getBytes(StandardCharsets.UTF_8))
                        .text())
                .isNull();
    }

    @Test
    void anExtractionPastItsTimeIsStoppedAndRefused() {
        FileExtractor hurried = extractor(Duration.ofMillis(1), 1);
        try {
            List<List<String>> many = java.util.Collections.nCopies(40, PAGES.get(1));
            assertProblem(() -> hurried.extract("long.pdf", Format.PDF, TestFiles.pdf(many)), "extraction-timeout");
        } finally {
            hurried.destroy();
        }
    }

    @Test
    void cleaningJoinsHyphenatedWordsAndDropsPageNumbers() {
        assertThat(ExtractedText.clean("a well-\nknown exam-\n ple  \n\n\n\nend"))
                .isEqualTo("a wellknown example\n\nend");
    }

    @Test
    void cleaningARunOfSpacesTakesTimeInProportionToIt() {
        // the regular expression this replaced took 14.7 s over 25,000 spaces, and four times that for twice as many
        String spaces = " ".repeat(200_000);
        String nbsp = "\u00A0\t".repeat(100_000);

        String cleaned = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                Duration.ofSeconds(1), () -> ExtractedText.clean("x" + spaces + "y\nz" + nbsp + "\nw" + spaces));

        assertThat(cleaned).isEqualTo("x" + spaces + "y\nz\nw");
    }

    @Test
    void trailingSpacesGoOnlyBeforeALineEnd() {
        assertThat(ExtractedText.withoutTrailingSpaces("a \t\n b\u00A0\n\nc  ")).isEqualTo("a\n b\n\nc  ");
        assertThat(ExtractedText.withoutTrailingSpaces("no spaces\nhere")).isEqualTo("no spaces\nhere");
        assertThat(ExtractedText.withoutTrailingSpaces("   \n")).isEqualTo("\n");
    }

    private FileExtractor.Extraction extract(String name, Format format, byte[] content) {
        return extractor.extract(name, format, content);
    }

    private static void assertProblem(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String type) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiProblem.class, p -> {
            assertThat(p.type()).as(p.getMessage()).isEqualTo(type);
            assertThat(p.field()).isEqualTo("file");
        });
    }
}
