package io.lorekeeper.evaluator;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.zip.CRC32;

/**
 * The folds of the cross-validation ({@link CrossValidation}). LoCoMo's questions about one conversation share
 * its speakers, names and wording, so they are split by conversation (item id {@code <sampleId>/<n>}: leave one
 * conversation out), else a rule tuned on a conversation's questions would be scored on its siblings. Other
 * datasets (HotpotQA: one passage set per question) are split by question into {@value #HASHED} folds by a CRC-32
 * of the item id: fixed by the id alone, so a fold never changes with the order or the number of items read.
 */
final class Folds {

    static final int HASHED = 5;

    private Folds() {}

    /** The fold an item belongs to: its conversation for LoCoMo, else {@code fold-<crc32(id) mod 5>}. */
    static String of(String dataset, String itemId) {
        if (dataset.equals("locomo")) {
            int slash = itemId.lastIndexOf('/');
            return slash < 0 ? itemId : itemId.substring(0, slash);
        }
        CRC32 crc = new CRC32();
        crc.update(itemId.getBytes(StandardCharsets.UTF_8));
        return "fold-" + crc.getValue() % HASHED;
    }

    /** The folds the items fall in, sorted. */
    static List<String> names(String dataset, Collection<String> itemIds) {
        TreeSet<String> names = new TreeSet<>();
        itemIds.forEach(id -> names.add(of(dataset, id)));
        return List.copyOf(names);
    }
}
