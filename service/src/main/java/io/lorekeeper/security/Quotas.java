package io.lorekeeper.security;

/** A tenant's limits in force (0: none). */
public record Quotas(long requestsPerMinute, long storedBytes, long documents, long llmTokensPerDay) {

    static final Quotas NONE = new Quotas(0, 0, 0, 0);

    /**
     * A tenant's own values as stored on its row: null takes the configured default, 0 lifts the limit.
     */
    record Overrides(Long requestsPerMinute, Long storedBytes, Long documents, Long llmTokensPerDay) {

        static final Overrides NONE = new Overrides(null, null, null, null);

        Quotas over(Quotas defaults) {
            return new Quotas(
                    requestsPerMinute != null ? requestsPerMinute : defaults.requestsPerMinute,
                    storedBytes != null ? storedBytes : defaults.storedBytes,
                    documents != null ? documents : defaults.documents,
                    llmTokensPerDay != null ? llmTokensPerDay : defaults.llmTokensPerDay);
        }
    }
}
