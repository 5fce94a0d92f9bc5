package io.lorekeeper.security;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

import org.springframework.stereotype.Component;

import io.lorekeeper.platform.ApiProblem;

/**
 * The calling tenant's storage and LLM-token quotas, checked where work is accepted (a document, a
 * session append, a question, a reindex, an evaluation). Requests per minute are counted by the
 * filter chain. The open mode of local use has no quotas, and neither has the operator's admin key.
 *
 * <p>Checks read the current totals, so concurrent intakes can overshoot a limit by what they add
 * together; the limit holds from the next request on.
 */
@Component
public class TenantQuotas {

    private final StoredContent storedContent;
    private final TokenSpend tokenSpend;

    /** The counts come from the modules that own the documents and the call log. */
    TenantQuotas(StoredContent storedContent, TokenSpend tokenSpend) {
        this.storedContent = storedContent;
        this.tokenSpend = tokenSpend;
    }

    /**
     * Refuses (413) content that would take the tenant past its stored bytes or document count.
     *
     * @param addedText      the canonical text the request adds (counted in UTF-8 bytes, as stored)
     * @param addedDocuments documents it adds (0 for an append)
     */
    public void requireStorage(String addedText, int addedDocuments) {
        Caller caller = CurrentTenant.caller().orElse(null);
        if (caller == null
                || (caller.quotas().storedBytes() <= 0 && caller.quotas().documents() <= 0)) {
            return;
        }
        long addedBytes = utf8Length(addedText);
        StoredContent.Stored stored = storedContent.of(caller.tenantId());
        long maxDocuments = caller.quotas().documents();
        if (addedDocuments > 0 && maxDocuments > 0 && stored.documents() + addedDocuments > maxDocuments) {
            throw quota(
                            ApiProblem.Kind.TOO_LARGE,
                            "documents",
                            "Document quota exceeded",
                            "this tenant may store " + maxDocuments + " documents and has " + stored.documents()
                                    + "; delete some first",
                            maxDocuments)
                    .with("used", stored.documents());
        }
        long maxBytes = caller.quotas().storedBytes();
        if (maxBytes > 0 && stored.bytes() + addedBytes > maxBytes) {
            throw quota(
                            ApiProblem.Kind.TOO_LARGE,
                            "stored-bytes",
                            "Storage quota exceeded",
                            "this tenant may store " + maxBytes + " bytes of text and has " + stored.bytes()
                                    + "; this request adds " + addedBytes + "; delete documents first",
                            maxBytes)
                    .with("used", stored.bytes());
        }
    }

    /** Refuses (429 until the next UTC midnight) work when the tenant has spent its model tokens for today. */
    public void requireTokens() {
        Caller caller = CurrentTenant.caller().orElse(null);
        if (caller == null || caller.quotas().llmTokensPerDay() <= 0) {
            return;
        }
        Instant dayStart =
                LocalDate.now(ZoneOffset.UTC).atStartOfDay(ZoneOffset.UTC).toInstant();
        long spent = tokenSpend.billedSince(caller.tenantId(), dayStart);
        long limit = caller.quotas().llmTokensPerDay();
        if (spent >= limit) {
            Instant resets = dayStart.plusSeconds(86_400);
            long retryAfter =
                    Math.max(1, resets.getEpochSecond() - Instant.now().getEpochSecond());
            throw quota(
                            ApiProblem.Kind.TOO_MANY_REQUESTS,
                            "llm-tokens-per-day",
                            "LLM token quota exceeded",
                            "this tenant has spent " + spent + " of its " + limit
                                    + " model tokens for today (UTC); the quota resets at " + resets,
                            limit)
                    .with("used", spent)
                    .with("resetsAt", resets.toString())
                    .header("Retry-After", Long.toString(retryAfter));
        }
    }

    static long utf8Length(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    private static ApiProblem quota(ApiProblem.Kind kind, String quota, String title, String detail, long limit) {
        return new ApiProblem(kind, "quota-exceeded", title, detail, null)
                .with("quota", quota)
                .with("limit", limit);
    }
}
