package io.lorekeeper.document;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.document.files.FileExtractor;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import io.lorekeeper.support.TestFiles;
import tools.jackson.databind.JsonNode;

/**
 * Measures a ~300-page PDF (generated with PDFBox): text extraction alone against upload to READY
 * (extraction, segmentation, embedding). Opt-in; the figures go to docs/benchmarks.md:
 * {@code bash scripts/test.sh -pl service -Dtest=FileIngestionMeasurementTest -Dlorekeeper.measure.files=true}
 */
@IntegrationTest
@EnabledIfSystemProperty(named = "lorekeeper.measure.files", matches = "true")
class FileIngestionMeasurementTest {

    private static final int PAGES = 300;
    private static final String[] WORDS = ("the keeper lamp tower storm ship rock sea night light harbour "
                    + "schooner sailor ledger winter wind tide beacon island cliff rope boat oar wave coast "
                    + "northern board medal brother letter morning evening fog bell signal watch")
            .split(" ");

    @Autowired
    Api api;

    @Autowired
    FileExtractor extractor;

    @Test
    void aThreeHundredPagePdf() {
        Random random = new Random(33);
        List<List<String>> pages = new ArrayList<>();
        for (int p = 0; p < PAGES; p++) {
            List<String> lines = new ArrayList<>();
            for (int l = 0; l < 44; l++) {
                StringBuilder line = new StringBuilder();
                while (line.length() < 80) {
                    line.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
                }
                lines.add(line.toString().strip() + (l % 4 == 3 ? "." : ""));
            }
            pages.add(lines);
        }
        byte[] pdf = TestFiles.pdf(pages);

        long t0 = System.nanoTime();
        FileExtractor.Extraction extraction = extractor.extract("long.pdf", FileExtractor.Format.PDF, pdf);
        double extractSeconds = (System.nanoTime() - t0) / 1e9;

        long t1 = System.nanoTime();
        Api.Response uploaded = api.upload(
                "/v1/documents/files", "long.pdf", "application/pdf", pdf, Map.of("profile", "retrieval-only"));
        assertThat(uploaded.status()).as(uploaded.body()).isEqualTo(202);
        double acceptSeconds = (System.nanoTime() - t1) / 1e9;
        UUID id = UUID.fromString(uploaded.json().get("id").asString());
        JsonNode doc = api.awaitDocument(id, "READY", Duration.ofMinutes(20));
        double readySeconds = (System.nanoTime() - t1) / 1e9;

        System.out.printf(
                "[measure] %d-page PDF, %,d bytes, %,d characters, %d sections, %,d tokens, %d chunks: "
                        + "extraction %.1f s, upload answered (202) %.1f s, upload to READY %.1f s%n",
                PAGES,
                pdf.length,
                extraction.text().text().length(),
                extraction.text().sections().size(),
                doc.get("tokenCount").asInt(),
                doc.get("chunkCount").asInt(),
                extractSeconds,
                acceptSeconds,
                readySeconds);
        assertThat(extraction.text().sections()).hasSize(PAGES);
    }
}
