package io.lorekeeper.document;

import java.util.Set;

import io.lorekeeper.platform.ApiProblem;

/**
 * Named sets of memory layers a document is indexed with. {@code standard} builds every layer the
 * service can build (the LLM-written ones only when an LLM is configured); {@code retrieval-only}
 * never calls an LLM at ingestion, for documents that will only be searched or answered extractively;
 * {@code deep} is standard plus the on-demand indexes (ComoRAG's), which cost hundreds of calls
 * for a novel and are otherwise built only when a reindex names them.
 */
public final class IndexProfiles {

    public static final String STANDARD = "standard";
    public static final String RETRIEVAL_ONLY = "retrieval-only";
    public static final String DEEP = "deep";
    private static final Set<String> ALL = Set.of(STANDARD, RETRIEVAL_ONLY, DEEP);

    private IndexProfiles() {}

    /** The profile named, or {@link #STANDARD} when none is; a problem naming {@code profile} for an unknown one. */
    public static String validate(String profile) {
        if (profile == null || profile.isBlank()) {
            return STANDARD;
        }
        if (!ALL.contains(profile)) {
            throw ApiProblem.invalid("profile", "unknown profile '" + profile + "'; use one of " + ALL);
        }
        return profile;
    }
}
