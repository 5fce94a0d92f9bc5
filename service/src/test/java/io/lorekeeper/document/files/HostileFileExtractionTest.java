package io.lorekeeper.document.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.lorekeeper.document.files.FileExtractor.Format;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.support.HostileFiles;
import io.lorekeeper.support.TestFiles;

/**
 * The files an attack sweep used to freeze the service, exhaust its heap or hold an extraction slot for
 * most of a minute, each generated here and extracted as an upload is: every one is answered within
 * its deadline (the process start included), the attacks on memory and time are refused naming the
 * file, and no extraction process is left running once its answer is in.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostileFileExtractionTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    /** Starting a process and loading the parsers, on a loaded two-core machine, beyond the deadline. */
    private static final Duration SLACK = ExtractionProcess.GRACE.plusSeconds(10);

    private static final FileExtractor extractor = FileExtractorTest.extractor(DEADLINE, 2);

    @AfterAll
    static void close() {
        extractor.destroy();
    }

    /** A name, its format, how to build it, and the outcomes allowed: a problem type, or "text" for a document. */
    static Stream<Arguments> hostileFiles() {
        return Stream.of(
                file("spaces.html", Format.HTML, () -> HostileFiles.spacesHtml(1_000_000), "text"),
                file("title.html", Format.HTML, () -> HostileFiles.ebcdicLookingHtml(1_000_000), "invalid-request"),
                // a parse that takes seconds on a quiet machine and can pass the deadline on a loaded one
                file(
                        "tables.html",
                        Format.HTML,
                        () -> HostileFiles.nestedTablesHtml(70_000),
                        "text",
                        "extraction-timeout"),
                file(
                        "inflating.pdf",
                        Format.PDF,
                        () -> HostileFiles.inflatingPdf(256L << 20),
                        "extraction-memory",
                        "extraction-timeout"),
                file("pages.pdf", Format.PDF, () -> HostileFiles.repeatedPagePdf(100_000), "repeated-parts"),
                file(
                        "spine.epub",
                        Format.EPUB,
                        () -> TestFiles.epub(List.of("One"), List.of("The same chapter again."), 100_000),
                        "repeated-parts"));
    }

    @Order(1)
    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileFiles")
    void isAnsweredWithinItsDeadlineAndLeavesNothingRunning(
            String name, Format format, Supplier<byte[]> file, Set<String> allowed) {
        byte[] content = file.get();
        long start = System.nanoTime();
        String outcome;
        try {
            extractor.extract(name, format, content);
            outcome = "text";
        } catch (ApiProblem problem) {
            assertThat(problem.field()).isEqualTo("file");
            outcome = problem.type();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(allowed).as("%s answered %s", name, outcome).contains(outcome);
        assertThat(took).as("%s answered after %s", name, took).isLessThan(DEADLINE.plus(SLACK));
        assertThat(extractor.extractionsRunning()).isZero();
    }

    @Order(2)
    @Test
    void anOrdinaryPdfIsExtractedAfterTheHostileOnes() {
        FileExtractor.Extraction extraction =
                extractor.extract("report.pdf", Format.PDF, TestFiles.pdf(FileExtractorTest.PAGES));

        assertThat(extraction.text().text()).contains("saved six sailors");
    }

    private static Arguments file(String name, Format format, Supplier<byte[]> content, String... allowed) {
        return Arguments.of(name, format, content, Set.of(allowed));
    }
}
