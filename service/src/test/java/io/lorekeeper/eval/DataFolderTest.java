package io.lorekeeper.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.lorekeeper.platform.ApiProblem;

/** Evaluation paths resolved for real: nothing outside the data folder is read, whatever the links say. */
class DataFolderTest {

    @TempDir
    Path base;

    Path data;
    Path outside;

    @BeforeEach
    void folders() throws IOException {
        data = Files.createDirectories(base.resolve("data"));
        outside = Files.createDirectories(base.resolve("secret"));
        Files.writeString(outside.resolve("passwd"), "root:x:0:0:root:/root:/bin/bash\n");
        Files.writeString(data.resolve("items.jsonl"), "{\"question\": \"q\"}\n");
    }

    @Test
    void aFileInsideTheFolderIsItsRealPath() throws IOException {
        assertThat(DataFolder.resolve(data, "items.jsonl", false))
                .isEqualTo(data.resolve("items.jsonl").toRealPath());
    }

    @Test
    void aSymlinkedFileLeadingOutsideIsRefusedWithoutReadingIt() throws IOException {
        Files.createSymbolicLink(data.resolve("link.jsonl"), outside.resolve("passwd"));

        assertThatThrownBy(() -> DataFolder.resolve(data, "link.jsonl", false))
                .isInstanceOfSatisfying(
                        ApiProblem.class,
                        p -> assertThat(p.getMessage())
                                .contains("leads outside the data folder")
                                .doesNotContain("root"));
    }

    @Test
    void aSymlinkedFolderLeadingOutsideIsRefused() throws IOException {
        Files.createSymbolicLink(data.resolve("more"), outside);

        assertThatThrownBy(() -> DataFolder.resolve(data, "more/passwd", false))
                .isInstanceOf(ApiProblem.class)
                .hasMessageContaining("leads outside the data folder");
        assertThatThrownBy(() -> DataFolder.resolve(data, "more", false))
                .isInstanceOf(ApiProblem.class)
                .hasMessageContaining("leads outside the data folder");
    }

    @Test
    void aFolderHoldingALinkOutsideIsRefusedAsAWhole() throws IOException {
        Path loogle = Files.createDirectories(data.resolve("loogle"));
        Files.writeString(loogle.resolve("a.jsonl"), "{}\n");
        Files.createSymbolicLink(loogle.resolve("b.jsonl"), outside.resolve("passwd"));

        assertThatThrownBy(() -> DataFolder.resolve(data, "loogle", false))
                .isInstanceOf(ApiProblem.class)
                .hasMessageContaining("leads outside the data folder");
    }

    @Test
    void theFilesBesideAComoRagQuestionFileCountWhenTheLoaderReadsThem() throws IOException {
        Path comorag = Files.createDirectories(data.resolve("comorag"));
        Files.writeString(comorag.resolve("qas.jsonl"), "{}\n");
        Files.createSymbolicLink(comorag.resolve("story.txt"), outside.resolve("passwd"));

        assertThat(DataFolder.resolve(data, "comorag/qas.jsonl", false)).isNotNull();
        assertThatThrownBy(() -> DataFolder.resolve(data, "comorag/qas.jsonl", true))
                .isInstanceOf(ApiProblem.class)
                .hasMessageContaining("leads outside the data folder");
    }

    @Test
    void traversalAbsolutePathsAndMissingFilesAreRefused() {
        assertThatThrownBy(() -> DataFolder.resolve(data, "../secret/passwd", false))
                .isInstanceOf(ApiProblem.class)
                .hasMessageContaining("leads outside");
        assertThatThrownBy(
                        () -> DataFolder.resolve(data, outside.resolve("passwd").toString(), false))
                .isInstanceOf(ApiProblem.class)
                .hasMessageContaining("leads outside");
        assertThatThrownBy(() -> DataFolder.resolve(data, "nope.jsonl", false))
                .isInstanceOf(ApiProblem.class)
                .hasMessageContaining("no such file");
    }

    @Test
    void aLoadersErrorLosesTheWordsItQuotedFromTheFile() {
        assertThat(DataFolder.withoutContent(
                        "Unrecognized token 'root': was expecting (JSON String, Number)\n at [Source: \"root:x:0\"]"))
                .isEqualTo("Unrecognized token '…': was expecting (JSON String, Number)");
        assertThat(DataFolder.withoutContent("field \"secret value\" missing")).isEqualTo("field \"…\" missing");
    }
}
