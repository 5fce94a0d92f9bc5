package io.lorekeeper.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;

import io.lorekeeper.platform.ApiProblem;

/**
 * The quota arithmetic without a database: a limit is refused past it, never at it; a limit of 0
 * is no limit; the admin and the open mode have none; text counts in UTF-8 bytes.
 */
class TenantQuotasUnitTest {

    private static final UUID TENANT = UUID.fromString("00000000-0000-0000-0000-0000000000aa");

    private long storedDocuments;
    private long storedBytes;
    private long spent;
    private final List<Instant> spentSince = new ArrayList<>();
    private final TenantQuotas quotas = new TenantQuotas(
            tenant -> {
                assertThat(tenant).isEqualTo(TENANT);
                return new StoredContent.Stored(storedDocuments, storedBytes);
            },
            (tenant, since) -> {
                assertThat(tenant).isEqualTo(TENANT);
                spentSince.add(since);
                return spent;
            });

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
    }

    private static void callerWith(Quotas quotas) {
        Caller caller = new Caller(Caller.Kind.TENANT, TENANT, UUID.randomUUID(), "lk_test", false, quotas);
        SecurityContextHolder.getContext().setAuthentication(new TestingAuthenticationToken(caller, null));
    }

    private ApiProblem refusedStorage(String text, int documents) {
        return catchThrowableOfType(ApiProblem.class, () -> quotas.requireStorage(text, documents));
    }

    @Test
    void storedBytesAreRefusedPastTheLimitNotAtIt() {
        callerWith(new Quotas(0, 100, 0, 0));
        storedBytes = 90;
        assertThatCode(() -> quotas.requireStorage("x".repeat(10), 1))
                .as("exactly the limit is allowed")
                .doesNotThrowAnyException();
        ApiProblem past = refusedStorage("x".repeat(11), 1);
        assertThat(past).isNotNull();
        assertThat(past.kind()).isEqualTo(ApiProblem.Kind.TOO_LARGE);
        assertThat(past.type()).isEqualTo("quota-exceeded");
        assertThat(past.properties())
                .containsEntry("quota", "stored-bytes")
                .containsEntry("limit", 100L)
                .containsEntry("used", 90L);
        assertThat(past.getMessage()).contains("adds 11");
    }

    @Test
    void documentsAreRefusedPastTheLimitNotAtItAndAppendsAddNone() {
        callerWith(new Quotas(0, 0, 3, 0));
        storedDocuments = 2;
        assertThatCode(() -> quotas.requireStorage("text", 1)).doesNotThrowAnyException();
        ApiProblem past = refusedStorage("text", 2);
        assertThat(past).isNotNull();
        assertThat(past.properties())
                .containsEntry("quota", "documents")
                .containsEntry("limit", 3L)
                .containsEntry("used", 2L);
        storedDocuments = 3;
        assertThatCode(() -> quotas.requireStorage("an append", 0))
                .as("an append adds no document")
                .doesNotThrowAnyException();
        assertThat(refusedStorage("another", 1)).isNotNull();
    }

    @Test
    void theDocumentCountIsCheckedBeforeTheBytes() {
        callerWith(new Quotas(0, 10, 1, 0));
        storedDocuments = 1;
        storedBytes = 10;
        assertThat(refusedStorage("more", 1).properties()).containsEntry("quota", "documents");
        storedDocuments = 0;
        assertThat(refusedStorage("more", 1).properties()).containsEntry("quota", "stored-bytes");
    }

    @Test
    void aZeroLimitIsNoLimitAndTheAdminOrNoCallerHasNone() {
        storedDocuments = 1_000;
        storedBytes = 1_000_000;
        spent = 1_000_000;
        callerWith(new Quotas(0, 0, 0, 0));
        assertThatCode(() -> quotas.requireStorage("x".repeat(100), 1)).doesNotThrowAnyException();
        assertThatCode(quotas::requireTokens).doesNotThrowAnyException();
        callerWith(new Quotas(0, 0, 5, 0));
        assertThatCode(() -> quotas.requireStorage("x".repeat(100), 0))
                .as("a byte limit of 0 lifts the byte limit even when a document limit is set")
                .doesNotThrowAnyException();
        callerWith(new Quotas(0, 5, 0, 0));
        assertThat(refusedStorage("x", 1).properties())
                .as("a document limit of 0 lifts the document limit only")
                .containsEntry("quota", "stored-bytes");
        SecurityContextHolder.getContext().setAuthentication(new TestingAuthenticationToken(Caller.admin(), null));
        assertThatCode(() -> quotas.requireStorage("x".repeat(100), 1)).doesNotThrowAnyException();
        SecurityContextHolder.clearContext();
        assertThatCode(() -> quotas.requireStorage("x", 1)).doesNotThrowAnyException();
        assertThatCode(quotas::requireTokens).doesNotThrowAnyException();
    }

    @Test
    void tokensAreRefusedOnceTheDaysSpendReachesTheLimitUntilUtcMidnight() {
        callerWith(new Quotas(0, 0, 0, 1_000));
        spent = 999;
        assertThatCode(quotas::requireTokens).doesNotThrowAnyException();
        Instant dayStart =
                LocalDate.now(ZoneOffset.UTC).atStartOfDay(ZoneOffset.UTC).toInstant();
        assertThat(spentSince).containsExactly(dayStart);
        spent = 1_000;
        ApiProblem spentAll = catchThrowableOfType(ApiProblem.class, quotas::requireTokens);
        assertThat(spentAll).isNotNull();
        assertThat(spentAll.kind()).isEqualTo(ApiProblem.Kind.TOO_MANY_REQUESTS);
        assertThat(spentAll.properties())
                .containsEntry("quota", "llm-tokens-per-day")
                .containsEntry("limit", 1_000L)
                .containsEntry("used", 1_000L)
                .containsEntry("resetsAt", dayStart.plusSeconds(86_400).toString());
        long retryAfter = Long.parseLong(spentAll.headers().get("Retry-After"));
        long untilMidnight =
                dayStart.plusSeconds(86_400).getEpochSecond() - Instant.now().getEpochSecond();
        assertThat(retryAfter).isBetween(Math.max(1, untilMidnight - 5), Math.max(1, untilMidnight + 5));
    }

    @Test
    void textIsCountedInUtf8Bytes() {
        assertThat(TenantQuotas.utf8Length("")).isZero();
        assertThat(TenantQuotas.utf8Length("a\u007f")).isEqualTo(2);
        assertThat(TenantQuotas.utf8Length("\u0080\u07ff")).isEqualTo(4);
        assertThat(TenantQuotas.utf8Length("\u0800\uffff")).isEqualTo(6);
        assertThat(TenantQuotas.utf8Length("\uD83D\uDE00"))
                .as("a surrogate pair is one 4-byte character")
                .isEqualTo(4);
        assertThat(TenantQuotas.utf8Length("\uD83Dx"))
                .as("a lone high surrogate is written as 3 bytes")
                .isEqualTo(4);
        assertThat(TenantQuotas.utf8Length("x\uD83D"))
                .as("a high surrogate at the end")
                .isEqualTo(4);
        assertThat(TenantQuotas.utf8Length("\uDE00")).isEqualTo(3);
        for (String s : List.of("héllo wörld", "日本語のテキスト", "emoji \uD83D\uDE00\uD83C\uDF89 end")) {
            assertThat(TenantQuotas.utf8Length(s))
                    .isEqualTo(s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        }
    }
}
