package io.lorekeeper.comorag;

import java.util.List;
import java.util.Map;

import io.lorekeeper.comorag.TriRetriever.LayerResult;
import io.lorekeeper.llm.PromptMarkup;

/** How evidence, cues and probes are laid out in the loop's prompts. */
final class Prompts {

    private Prompts() {}

    static String layerName(String layer) {
        return switch (layer) {
            case ComoRagOptions.VERIDICAL -> "source passages (the text itself)";
            case ComoRagOptions.SEMANTIC ->
                "thematic summaries (each sums up passages on one topic, from anywhere in the text)";
            default -> "plot summaries (each tells a stretch of consecutive passages in order)";
        };
    }

    /** Items labelled {@code <prefix>1, <prefix>2...}: source passages as {@code <passage>}, summaries as {@code <summary>}. */
    static PromptMarkup evidence(List<Evidence> items, String prefix) {
        if (items.isEmpty()) {
            return PromptMarkup.of("(nothing retrieved)");
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < items.size(); i++) {
            Evidence e = items.get(i);
            String tag = e.isSource() ? "passage" : "summary";
            out.append('<')
                    .append(tag)
                    .append(" n=\"")
                    .append(prefix)
                    .append(i + 1)
                    .append('"');
            if (e.session() != null) {
                out.append(" session=\"")
                        .append(PromptMarkup.data(e.session().replace("\"", "'")))
                        .append('"');
            }
            out.append(">\n")
                    .append(PromptMarkup.data(e.text().strip()))
                    .append("\n</")
                    .append(tag)
                    .append(">\n\n");
        }
        return PromptMarkup.of(out.toString().stripTrailing());
    }

    /** The three layers of one probe's retrieval, each under its own heading. */
    static PromptMarkup layers(Map<String, LayerResult> layers) {
        StringBuilder out = new StringBuilder();
        for (LayerResult r : layers.values()) {
            out.append("## ")
                    .append(r.layer())
                    .append(": ")
                    .append(layerName(r.layer()))
                    .append("\n\n")
                    .append(evidence(r.items(), r.layer().substring(0, 1).toUpperCase(java.util.Locale.ROOT))
                            .text())
                    .append("\n\n");
        }
        return PromptMarkup.of(out.toString().stripTrailing());
    }

    /** Memory units' cues, each with the probe that led to it. */
    static PromptMarkup cues(List<MemoryUnit> units) {
        if (units.isEmpty()) {
            return PromptMarkup.of("(no findings yet)");
        }
        StringBuilder out = new StringBuilder();
        for (MemoryUnit u : units) {
            out.append("<notes probe=\"")
                    .append(PromptMarkup.data(u.probe().replace("\"", "'").replace("\n", " ")))
                    .append("\" layer=\"")
                    .append(u.layer())
                    .append("\">\n")
                    .append(PromptMarkup.data(u.cue()))
                    .append("\n</notes>\n\n");
        }
        return PromptMarkup.of(out.toString().stripTrailing());
    }

    static String numbered(List<String> lines) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            out.append(i + 1)
                    .append(". ")
                    .append(lines.get(i).replace("\n", " "))
                    .append('\n');
        }
        return out.toString().stripTrailing();
    }
}
