package io.lorekeeper.evaluator;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import io.lorekeeper.evaluator.Report.Row;

/** accuracy-vs-tokens.svg: each strategy's overall score against the LLM tokens it spent per question. */
final class ScoreTokensChart {

    private ScoreTokensChart() {}

    /**
     * Accuracy (overall score) against LLM tokens per question, one point per strategy. One method:
     * the SVG's elements are written in drawing order, axes first, so it reads top to bottom.
     */
    static String of(Report report) {
        Map<String, Row> overall = new LinkedHashMap<>();
        report.summary().stream()
                .filter(r -> r.category().equals(Report.OVERALL) && r.score() != null)
                .forEach(r -> overall.put(r.strategy(), r));
        int width = 640;
        int height = 400;
        int left = 70;
        int right = 30;
        int top = 40;
        int bottom = 60;
        double maxTokens = Math.max(
                        1,
                        overall.values().stream()
                                .mapToDouble(Row::llmTokens)
                                .max()
                                .orElse(1))
                * 1.1;
        StringBuilder out = new StringBuilder();
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(width)
                .append("\" height=\"")
                .append(height)
                .append("\" font-family=\"sans-serif\" font-size=\"12\">\n")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n")
                .append("<text x=\"")
                .append(width / 2)
                .append("\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">")
                .append(escape(report.dataset()))
                .append(": score vs LLM tokens per question</text>\n");
        int plotW = width - left - right;
        int plotH = height - top - bottom;
        out.append(line(left, top + plotH, left + plotW, top + plotH)).append(line(left, top, left, top + plotH));
        for (int i = 0; i <= 5; i++) {
            double v = i / 5.0;
            int y = (int) (top + plotH - v * plotH);
            out.append(line(left - 4, y, left, y))
                    .append(text(left - 8, y + 4, String.format(Locale.ROOT, "%.1f", v), "end"));
            double t = maxTokens * i / 5.0;
            int x = (int) (left + plotW * i / 5.0);
            out.append(line(x, top + plotH, x, top + plotH + 4))
                    .append(text(x, top + plotH + 18, String.format(Locale.ROOT, "%.0f", t), "middle"));
        }
        out.append(text(left + plotW / 2, height - 15, "LLM tokens per question (mean)", "middle"));
        out.append("<text x=\"18\" y=\"")
                .append(top + plotH / 2)
                .append("\" text-anchor=\"middle\" transform=\"rotate(-90 18 ")
                .append(top + plotH / 2)
                .append(")\">score (F1 or accuracy, overall)</text>\n");
        String[] colours = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};
        int c = 0;
        for (Row r : overall.values()) {
            int x = (int) (left + plotW * r.llmTokens() / maxTokens);
            int y = (int) (top + plotH - Math.max(0, Math.min(1, r.score())) * plotH);
            String colour = colours[c++ % colours.length];
            out.append("<circle cx=\"")
                    .append(x)
                    .append("\" cy=\"")
                    .append(y)
                    .append("\" r=\"6\" fill=\"")
                    .append(colour)
                    .append("\"/>\n")
                    .append(text(
                            x + 9, y - 8, r.strategy() + String.format(Locale.ROOT, " (%.3f)", r.score()), "start"));
        }
        return out.append("</svg>\n").toString();
    }

    private static String line(int x1, int y1, int x2, int y2) {
        return "<line x1=\"" + x1 + "\" y1=\"" + y1 + "\" x2=\"" + x2 + "\" y2=\"" + y2 + "\" stroke=\"black\"/>\n";
    }

    private static String text(int x, int y, String s, String anchor) {
        return "<text x=\"" + x + "\" y=\"" + y + "\" text-anchor=\"" + anchor + "\">" + escape(s) + "</text>\n";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
