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

    /**
     * How many assignments of hashed items to folds the cross-validation averages over: with 100 questions one
     * assignment's figure moves by about its standard error when a dozen questions change, a mean over several
     * moves less. LoCoMo has one: its folds are its conversations.
     */
    static final int ROUNDS = 5;

    private Folds() {}

    /** The fold an item belongs to: its conversation for LoCoMo, else {@code fold-<crc32(id) mod 5>}. */
    static String of(String dataset, String itemId) {
        return of(dataset, itemId, 0);
    }

    /**
     * The fold of an item in one assignment ({@code round}, from 0): for hashed datasets round r &gt; 0 hashes
     * {@code "<r>/<id>"}, another split of the same items; LoCoMo's conversations are the same in every round.
     */
    static String of(String dataset, String itemId, int round) {
        if (dataset.equals("locomo")) {
            int slash = itemId.lastIndexOf('/');
            return slash < 0 ? itemId : itemId.substring(0, slash);
        }
        CRC32 crc = new CRC32();
        crc.update((round == 0 ? itemId : round + "/" + itemId).getBytes(StandardCharsets.UTF_8));
        return "fold-" + crc.getValue() % HASHED;
    }

    /** How many fold assignments the dataset has: one for LoCoMo, {@link #ROUNDS} for hashed datasets. */
    static int rounds(String dataset) {
        return dataset.equals("locomo") ? 1 : ROUNDS;
    }

    /** The folds the items fall in, sorted. */
    static List<String> names(String dataset, Collection<String> itemIds) {
        return names(dataset, itemIds, 0);
    }

    static List<String> names(String dataset, Collection<String> itemIds, int round) {
        TreeSet<String> names = new TreeSet<>();
        itemIds.forEach(id -> names.add(of(dataset, id, round)));
        return List.copyOf(names);
    }
}
