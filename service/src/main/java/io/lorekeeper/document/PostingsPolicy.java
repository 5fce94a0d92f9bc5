package io.lorekeeper.document;

import java.util.List;

/**
 * When a BM25 search reads impact-ordered postings ({@link PostingHeads}) instead of scoring every
 * chunk its rarer terms select, and how deep.
 *
 * @param depth       postings read per term first; if those do not settle the top k, eight times as
 *                    many; if those do not either, the search scores its selection as before. 0: never.
 * @param fromChunks  the fewest searched chunks worth it: a smaller scope's selection is already small
 * @param tenantShare the least part of the tenant's chunks the searched documents must hold: the
 *                    postings are read in the tenant's impact order, so for a small part most of
 *                    those read would belong to other documents
 */
record PostingsPolicy(int depth, long fromChunks, double tenantShare) {

    static final PostingsPolicy NEVER = new PostingsPolicy(0, 0, 0);
    static final PostingsPolicy DEFAULT = new PostingsPolicy(64, 2000, 0.5);

    boolean applies(long searchedChunks, long tenantChunks) {
        return depth > 0 && searchedChunks >= fromChunks && searchedChunks >= tenantShare * tenantChunks;
    }

    List<Integer> depths() {
        return List.of(depth, depth * 8);
    }
}
