package io.lorekeeper.extractive;

import java.util.List;

import jakarta.annotation.PreDestroy;

import org.springframework.stereotype.Component;

import io.lorekeeper.memory.OnnxPairModel;

/**
 * The optional reader ({@code lorekeeper.extractive.reader}): an extractive question-answering model,
 * exported to ONNX, that gives a start and an end logit for every word piece of a passage read with the
 * question. Loaded once at start-up when its folder is set; a folder that holds no such model stops the
 * start with a message naming the setting, rather than failing the first question that needs it.
 */
@Component
class ReaderModel {

    static final String PREFIX = "lorekeeper.extractive.reader.";
    static final String START = "start_logits";
    static final String END = "end_logits";

    private final ExtractiveSettings.Reader settings;
    private final OnnxPairModel model;

    ReaderModel(ExtractiveSettings defaults) {
        this.settings = defaults.reader();
        if (!settings.isOn()) {
            this.model = null;
            return;
        }
        within("passages", settings.passages(), 1, 20);
        within("max-tokens", settings.maxTokens(), 64, 512);
        within("max-answer-pieces", settings.maxAnswerPieces(), 1, 100);
        this.model = OnnxPairModel.inFolder(settings.location(), PREFIX + "location", settings.maxTokens());
        // one tiny reading now: a cross-encoder or an embedding model in the folder is refused here, by name
        var outputs = model.read("?", List.of("a")).getFirst().outputs().keySet();
        if (!outputs.contains(START) || !outputs.contains(END)) {
            model.close();
            throw new IllegalStateException(PREFIX + "location: the model in " + settings.location()
                    + " is not a question-answering reader: it gives " + outputs + ", not " + START + " and "
                    + END);
        }
    }

    private static void within(String property, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalStateException(
                    PREFIX + property + " must be between " + min + " and " + max + ", was " + value);
        }
    }

    boolean isOn() {
        return model != null;
    }

    ExtractiveSettings.Reader settings() {
        return settings;
    }

    String name() {
        return model == null ? null : model.name();
    }

    /** The question read with each passage, one reading per passage in order. */
    List<OnnxPairModel.Reading> read(String question, List<String> passages) {
        if (model == null) {
            throw new IllegalStateException("no reader is configured (" + PREFIX + "location)");
        }
        return model.read(question, passages);
    }

    @PreDestroy
    void close() {
        if (model != null) {
            model.close();
        }
    }
}
