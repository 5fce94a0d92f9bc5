package io.lorekeeper.evaluator;

import java.util.ArrayList;
import java.util.List;

import io.lorekeeper.evaluator.Metrics.DocSpan;

/** An item's gold evidence located in its document; {@code unresolved} counts evidence that could not be. */
record GoldEvidence(List<DocSpan> spans, int unresolved) {

    static GoldEvidence of(EvalItem item, IngestedDocument doc) {
        List<DocSpan> spans = new ArrayList<>();
        int unresolved = 0;
        for (String e : item.evidence()) {
            DocSpan span = goldSpan(item, doc, e);
            if (span == null) {
                unresolved++;
            } else {
                spans.add(span);
            }
        }
        return new GoldEvidence(List.copyOf(spans), unresolved);
    }

    private static DocSpan goldSpan(EvalItem item, IngestedDocument doc, String evidence) {
        if (item.conversation()) {
            ServiceClient.TurnSpan turn = doc.turns().get(evidence);
            return turn == null ? null : new DocSpan(doc.id(), turn.start(), turn.end());
        }
        int[] span = TextLocator.find(doc.text(), evidence);
        return span == null ? null : new DocSpan(doc.id(), span[0], span[1]);
    }
}
