package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import io.lorekeeper.support.TinyOnnx;

/**
 * The reader is loaded when the service starts: off by default, and a folder that holds no reader stops
 * the start with a message naming the setting, not the first question that needs it.
 */
class ReaderModelTest {

    @TempDir
    Path dir;

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(ExtractiveSettings.class)
    @Import(ReaderModel.class)
    static class Reader {}

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(Reader.class);

    @Test
    void offUnlessItsFolderIsSet() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(ReaderModel.class).isOn()).isFalse();
            ExtractiveSettings.Reader settings =
                    context.getBean(ExtractiveSettings.class).reader();
            assertThat(settings.passages()).isEqualTo(5);
            assertThat(settings.maxTokens()).isEqualTo(384);
            assertThat(settings.maxAnswerPieces()).isEqualTo(30);
            assertThat(settings.noAnswerMargin()).isZero();
        });
    }

    @Test
    void aReadersFolderIsLoaded() {
        Path folder = TinyOnnx.folder(dir.resolve("reader"), TinyOnnx.reader(Map.of("a", 1f), Map.of("a", 1f)));
        runner.withPropertyValues("lorekeeper.extractive.reader.location=" + folder)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(ReaderModel.class).isOn()).isTrue();
                    assertThat(context.getBean(ReaderModel.class).name()).isEqualTo("reader");
                });
    }

    @Test
    void aFolderWithoutAModelStopsTheStartNamingTheSetting() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        runner.withPropertyValues("lorekeeper.extractive.reader.location=" + empty)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("lorekeeper.extractive.reader.location")
                        .hasMessageContaining(".onnx"));
    }

    @Test
    void aModelThatIsNotAReaderStopsTheStartNamingTheSetting() {
        Path folder = TinyOnnx.folder(dir.resolve("ce"), TinyOnnx.crossEncoder(Map.of("house", 1f)));
        runner.withPropertyValues("lorekeeper.extractive.reader.location=" + folder)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("lorekeeper.extractive.reader.location")
                        .hasMessageContaining("not a question-answering reader")
                        .hasMessageContaining("start_logits"));
    }

    @Test
    void aWindowBeyondWhatReadersTakeStopsTheStart() {
        Path folder = TinyOnnx.folder(dir.resolve("reader"), TinyOnnx.reader(Map.of("a", 1f), Map.of("a", 1f)));
        runner.withPropertyValues(
                        "lorekeeper.extractive.reader.location=" + folder,
                        "lorekeeper.extractive.reader.max-tokens=1024")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("lorekeeper.extractive.reader.max-tokens"));
    }
}
