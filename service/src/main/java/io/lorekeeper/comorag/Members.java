package io.lorekeeper.comorag;

import java.util.List;

import io.lorekeeper.llm.NumberedMarkup;
import io.lorekeeper.llm.PromptMarkup;

/** The texts a summary is written from, as numbered passages in the order given. */
final class Members {

    private Members() {}

    static PromptMarkup render(List<LayerWriter.Node> members) {
        String blocks = NumberedMarkup.render(
                        "passage",
                        members.stream()
                                .map(m -> NumberedMarkup.Block.of(m.text().strip()))
                                .toList())
                .text();
        return PromptMarkup.of(blocks.stripTrailing());
    }
}
