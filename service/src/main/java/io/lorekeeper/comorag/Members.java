package io.lorekeeper.comorag;

import java.util.List;

import io.lorekeeper.llm.PromptMarkup;

/** The texts a summary is written from, as numbered passages in the order given. */
final class Members {

    private Members() {}

    static PromptMarkup render(List<LayerWriter.Node> members) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < members.size(); i++) {
            out.append("<passage n=\"")
                    .append(i + 1)
                    .append("\">\n")
                    .append(PromptMarkup.data(members.get(i).text().strip()))
                    .append("\n</passage>\n\n");
        }
        return PromptMarkup.of(out.toString().stripTrailing());
    }
}
