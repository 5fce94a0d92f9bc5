package io.lorekeeper.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

import jakarta.servlet.FilterChain;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;

import io.lorekeeper.platform.IllegalTransitionException;
import io.lorekeeper.platform.Transitions;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tenancy filters without a Spring context or a database: which key resolves to which caller
 * (admin, a process-internal key, a tenant's stored key), what is refused and how, where the key is
 * read from, which callers are rate limited and from which request on, and which tenant a request
 * acts for.
 */
class TenancyFiltersUnitTest {

    private static final String ADMIN_KEY = "an-admin-key-of-at-least-32-characters";
    private static final UUID TENANT = UUID.fromString("00000000-0000-0000-0000-0000000000bb");
    private static final QuotaSettings QUOTA_DEFAULTS =
            new QuotaSettings(600, org.springframework.util.unit.DataSize.ofBytes(1000), 10, 0);

    private final ApiKeyRepository repository = mock(ApiKeyRepository.class);
    private final Transitions transitions = mock(Transitions.class);
    private final ApiKeys keys = new ApiKeys(repository, transitions);
    private final InternalKeys internal = new InternalKeys();
    private final Tenants tenants = mock(Tenants.class);
    private final FilterProblems problems =
            new FilterProblems(JsonMapper.builder().build());

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
    }

    private KeyAuthenticationProvider provider(String adminKey) {
        return new KeyAuthenticationProvider(new SecuritySettings(adminKey), keys, internal, tenants, QUOTA_DEFAULTS);
    }

    private static Caller resolve(KeyAuthenticationProvider provider, String key) {
        Authentication resolved = provider.authenticate(KeyAuthentication.presented(key));
        assertThat(resolved.isAuthenticated()).isTrue();
        assertThat(resolved.getCredentials())
                .as("the key text is dropped once resolved")
                .isNull();
        return (Caller) resolved.getPrincipal();
    }

    private static List<String> authorities(Authentication authentication) {
        return authentication.getAuthorities().stream()
                .map(GrantedAuthority::getAuthority)
                .toList();
    }

    /** A stored, active key of {@link #TENANT} with these quota overrides. */
    private String storedKey(boolean canEvaluate, Quotas.Overrides overrides) {
        String key = ApiKeys.newKey();
        ApiKey row = new ApiKey(TENANT, "k", key.substring(0, 11), ApiKeys.hash(key), canEvaluate, Instant.EPOCH);
        Tenant tenant = new Tenant("t", overrides, Instant.EPOCH);
        when(repository.findActiveRowsByHash(any())).thenAnswer(call -> {
            byte[] asked = call.getArgument(0);
            return java.security.MessageDigest.isEqual(asked, ApiKeys.hash(key))
                    ? List.<Object[]>of(new Object[] {row, tenant})
                    : List.of();
        });
        when(repository.findActiveByHash(any())).thenCallRealMethod();
        return key;
    }

    // --- KeyAuthenticationProvider

    @Test
    void theAdminKeyResolvesToTheAdminOfTheDefaultTenantWithEveryAuthority() {
        Authentication resolved = provider(ADMIN_KEY).authenticate(KeyAuthentication.presented(ADMIN_KEY));
        Caller caller = (Caller) resolved.getPrincipal();
        assertThat(caller.kind()).isEqualTo(Caller.Kind.ADMIN);
        assertThat(caller.tenantId()).isEqualTo(CurrentTenant.DEFAULT);
        assertThat(caller.quotas()).isEqualTo(Quotas.NONE);
        assertThat(caller.rateLimited()).isFalse();
        assertThat(authorities(resolved))
                .containsExactlyInAnyOrder("ROLE_TENANT", KeyAuthentication.ADMIN, KeyAuthentication.EVALUATE);
        assertThat(resolved.getName()).isEqualTo("ADMIN:admin");
        assertThat(resolved).hasToString("KeyAuthentication[ADMIN:admin]");
    }

    @Test
    void aStoredKeyResolvesToItsTenantWithItsOwnQuotasOverTheDefaults() {
        String key = storedKey(false, new Quotas.Overrides(5L, null, 0L, null));
        Authentication resolved = provider(ADMIN_KEY).authenticate(KeyAuthentication.presented(key));
        Caller caller = (Caller) resolved.getPrincipal();
        assertThat(caller.kind()).isEqualTo(Caller.Kind.TENANT);
        assertThat(caller.tenantId()).isEqualTo(TENANT);
        assertThat(caller.keyPrefix()).isEqualTo(key.substring(0, 11));
        assertThat(caller.canEvaluate()).isFalse();
        assertThat(caller.quotas())
                .as("own values win, null takes the default, 0 stays 0 (no limit)")
                .isEqualTo(new Quotas(5, 1000, 0, 0));
        assertThat(caller.rateLimited()).isTrue();
        assertThat(authorities(resolved)).containsExactly("ROLE_TENANT");
        assertThat(resolved.getName()).isEqualTo("TENANT:" + key.substring(0, 11));
    }

    @Test
    void aStoredKeyThatMayEvaluateCarriesThatAuthorityButNotTheAdminOne() {
        String key = storedKey(true, Quotas.Overrides.NONE);
        Authentication resolved = provider(ADMIN_KEY).authenticate(KeyAuthentication.presented(key));
        assertThat(((Caller) resolved.getPrincipal()).canEvaluate()).isTrue();
        assertThat(((Caller) resolved.getPrincipal()).quotas()).isEqualTo(QUOTA_DEFAULTS.defaults());
        assertThat(authorities(resolved)).containsExactlyInAnyOrder("ROLE_TENANT", KeyAuthentication.EVALUATE);
    }

    @Test
    void anInternalKeyActsForItsTenantWithoutRateLimitOnlyWhileItsLeaseIsOpen() {
        when(tenants.overrides(TENANT)).thenReturn(new Quotas.Overrides(null, 7L, null, 9L));
        when(repository.findActiveByHash(any())).thenReturn(List.of());
        KeyAuthenticationProvider provider = provider(ADMIN_KEY);
        InternalKeys.Lease lease = internal.issue(TENANT);
        assertThat(lease.key()).startsWith(ApiKeys.PREFIX);
        assertThat(lease.toString())
                .doesNotContain(lease.key())
                .contains(lease.key().substring(0, 11));

        Caller caller = resolve(provider, lease.key());
        assertThat(caller.kind()).isEqualTo(Caller.Kind.INTERNAL);
        assertThat(caller.tenantId()).isEqualTo(TENANT);
        assertThat(caller.keyPrefix()).isEqualTo("internal");
        assertThat(caller.canEvaluate()).isFalse();
        assertThat(caller.quotas()).isEqualTo(new Quotas(600, 7, 10, 9));
        assertThat(caller.rateLimited())
                .as("the service's own calls are not rate limited")
                .isFalse();

        lease.close();
        assertThatThrownBy(() -> provider.authenticate(KeyAuthentication.presented(lease.key())))
                .isInstanceOf(BadCredentialsException.class);
    }

    @Test
    void unknownEmptyAndOverlongKeysAreRefusedAndOnlyOurKeysPrefixIsShown() {
        when(repository.findActiveByHash(any())).thenReturn(List.of());
        KeyAuthenticationProvider provider = provider(ADMIN_KEY);
        String unknown = ApiKeys.newKey();
        assertThatThrownBy(() -> provider.authenticate(KeyAuthentication.presented(unknown)))
                .isInstanceOf(BadCredentialsException.class)
                .hasMessageContaining(unknown.substring(0, 11) + "…")
                .hasMessageNotContaining(unknown.substring(11));
        assertThatThrownBy(() -> provider.authenticate(KeyAuthentication.presented("sk-somebody-elses-secret")))
                .hasMessageContaining("(not a Lorekeeper key)")
                .hasMessageNotContaining("secret");
        for (String bad : new String[] {null, "", "x".repeat(513)}) {
            assertThatThrownBy(() -> provider.authenticate(KeyAuthentication.presented(bad)))
                    .isInstanceOf(BadCredentialsException.class)
                    .hasMessage("the API key is not valid");
        }
        verify(repository, never()).findActiveRowsByHash(any());
    }

    @Test
    void aKeyOf512CharactersIsStillLookedUp() {
        String longest = ApiKeys.PREFIX + "y".repeat(509);
        String key = storedKey(false, Quotas.Overrides.NONE);
        assertThatThrownBy(() -> provider(ADMIN_KEY).authenticate(KeyAuthentication.presented(longest)))
                .hasMessageContaining("is not valid or has been revoked");
        assertThat(resolve(provider(ADMIN_KEY), key).tenantId()).isEqualTo(TENANT);
    }

    @Test
    void withKeysOffTheAdminKeyTextIsNotSpecial() {
        when(repository.findActiveByHash(any())).thenReturn(List.of());
        assertThatThrownBy(() -> provider(null).authenticate(KeyAuthentication.presented(ADMIN_KEY)))
                .isInstanceOf(BadCredentialsException.class);
    }

    @Test
    void theProviderHandlesKeyAuthenticationsOnly() {
        KeyAuthenticationProvider provider = provider(ADMIN_KEY);
        assertThat(provider.supports(KeyAuthentication.class)).isTrue();
        assertThat(provider.supports(TestingAuthenticationToken.class)).isFalse();
    }

    @Test
    void aPresentedKeyIsUnauthenticatedAndErasedOnRequest() {
        KeyAuthentication presented = KeyAuthentication.presented("lk_secret-text");
        assertThat(presented.isAuthenticated()).isFalse();
        assertThat(presented.getPrincipal()).isNull();
        assertThat(presented.getName()).isEqualTo("unresolved key");
        assertThat(presented.toString()).doesNotContain("secret");
        assertThat(presented.key()).isEqualTo("lk_secret-text");
        assertThat(presented.getCredentials()).isEqualTo("lk_secret-text");
        presented.eraseCredentials();
        assertThat(presented.key()).isNull();
        assertThat(presented.getCredentials()).isNull();
    }

    // --- ApiKeys and ApiKey

    @Test
    void keysAreRandomPrefixedAndMaskedToTheirDisplayPrefix() {
        String key = ApiKeys.newKey();
        assertThat(key).startsWith("lk_").hasSize(3 + 43).isNotEqualTo(ApiKeys.newKey());
        assertThat(ApiKeys.masked(key)).isEqualTo(key.substring(0, 11) + "…");
        assertThat(ApiKeys.masked("lk_12345678"))
                .as("a key no longer than its display prefix shows nothing")
                .isEqualTo("(not a Lorekeeper key)");
        assertThat(ApiKeys.masked("lk_123456789")).isEqualTo("lk_12345678…");
        assertThat(ApiKeys.masked(null)).isEqualTo("(not a Lorekeeper key)");
        assertThat(ApiKeys.masked("Xk_123456789")).isEqualTo("(not a Lorekeeper key)");
        assertThat(ApiKeys.hash("a"))
                .hasSize(32)
                .isNotEqualTo(ApiKeys.hash("b"))
                .isEqualTo(ApiKeys.hash("a"));
    }

    @Test
    void aRowWhoseHashDiffersFromThePresentedKeysIsNotTakenEvenIfTheQueryReturnsIt() {
        ApiKey other = new ApiKey(TENANT, "k", "lk_other", ApiKeys.hash("lk_other-key"), true, Instant.EPOCH);
        when(repository.findActiveByHash(any()))
                .thenReturn(List.of(
                        new ApiKeyRepository.Active(other, new Tenant("t", Quotas.Overrides.NONE, Instant.EPOCH))));
        assertThat(keys.find("lk_presented-key")).isEmpty();
    }

    @Test
    void issuingStoresOnlyTheHashAndThePrefixAndReturnsTheKeyOnce() {
        when(repository.save(any())).thenAnswer(call -> call.getArgument(0));
        ApiKeys.NewApiKey issued = keys.issue(TENANT, "ci", true);
        assertThat(issued.key()).startsWith("lk_");
        assertThat(issued.prefix()).isEqualTo(issued.key().substring(0, 11));
        assertThat(issued.name()).isEqualTo("ci");
        assertThat(issued.canEvaluate()).isTrue();
        assertThat(issued.id()).isNotNull();
        assertThat(issued.createdAt()).isNotNull();
        var saved = org.mockito.ArgumentCaptor.forClass(ApiKey.class);
        verify(repository).save(saved.capture());
        assertThat(saved.getValue().keyHash()).isEqualTo(ApiKeys.hash(issued.key()));
        assertThat(saved.getValue().tenantId()).isEqualTo(TENANT);
        assertThat(saved.getValue().state()).isEqualTo(ApiKey.State.ACTIVE);
    }

    @Test
    void listingShowsEachKeysViewWithoutItsSecret() {
        ApiKey a = new ApiKey(TENANT, "a", "lk_aaaaaaaa", ApiKeys.hash("x"), true, Instant.EPOCH);
        a.revoke(Instant.ofEpochSecond(5));
        when(repository.findByTenantIdOrderByCreatedAtAscIdAsc(TENANT)).thenReturn(List.of(a));
        assertThat(keys.list(TENANT))
                .containsExactly(new ApiKeys.ApiKeyView(
                        a.id(), "a", "lk_aaaaaaaa", true, Instant.EPOCH, Instant.ofEpochSecond(5)));
    }

    @Test
    @SuppressWarnings("unchecked")
    void revokingAnotherTenantsKeyIsNoRevocation() {
        ApiKey key = new ApiKey(TENANT, "a", "lk_aaaaaaaa", ApiKeys.hash("x"), false, Instant.EPOCH);
        UUID other = UUID.randomUUID();
        when(repository.findByIdAndTenantId(key.id(), other)).thenReturn(Optional.empty());
        assertThat(keys.revoke(other, key.id())).isFalse();
        verify(transitions, never()).apply(any(), any(), any());

        when(repository.findByIdAndTenantId(key.id(), TENANT)).thenReturn(Optional.of(key));
        doAnswer(call -> {
                    ((Consumer<ApiKey>) call.getArgument(2)).accept(key);
                    return Optional.of(key);
                })
                .when(transitions)
                .apply(any(), any(), any());
        assertThat(keys.revoke(TENANT, key.id())).isTrue();
        assertThat(key.state()).isEqualTo(ApiKey.State.REVOKED);
        assertThat(key.revokedAt()).isNotNull();

        doReturn(Optional.empty()).when(transitions).apply(any(), any(), any());
        assertThat(keys.revoke(TENANT, key.id())).as("the key went meanwhile").isFalse();
    }

    @Test
    void aKeyIsRevokedOnceAndKeepsItsFirstRevocationTime() {
        byte[] hash = ApiKeys.hash("k");
        ApiKey key = new ApiKey(TENANT, "a", "lk_aaaaaaaa", hash, false, Instant.EPOCH);
        hash[0]++;
        assertThat(key.keyHash()).as("the hash is copied in").isEqualTo(ApiKeys.hash("k"));
        key.keyHash()[0]++;
        assertThat(key.keyHash()).as("and copied out").isEqualTo(ApiKeys.hash("k"));
        assertThat(key.state()).isEqualTo(ApiKey.State.ACTIVE);
        assertThat(key.version()).as("set when stored").isNull();
        key.revoke(Instant.ofEpochSecond(1));
        assertThatThrownBy(() -> key.revoke(Instant.ofEpochSecond(2))).isInstanceOf(IllegalTransitionException.class);
        assertThat(key.revokedAt()).isEqualTo(Instant.ofEpochSecond(1));
        assertThat(key.state()).isEqualTo(ApiKey.State.REVOKED);
        assertThat(key.name()).isEqualTo("a");
        assertThat(key.createdAt()).isEqualTo(Instant.EPOCH);
    }

    // --- ApiKeyFilter

    @Test
    void theKeyIsReadFromABearerHeaderInAnyCaseOrFromXApiKeyStripped() {
        MockHttpServletRequest request = new MockHttpServletRequest();
        assertThat(ApiKeyFilter.presentedKey(request)).isNull();
        request.addHeader(ApiKeyFilter.HEADER, "  lk_fromheader ");
        assertThat(ApiKeyFilter.presentedKey(request)).isEqualTo("lk_fromheader");
        request.addHeader("Authorization", "bEaReR  lk_frombearer ");
        assertThat(ApiKeyFilter.presentedKey(request)).as("Bearer wins").isEqualTo("lk_frombearer");

        MockHttpServletRequest basic = new MockHttpServletRequest();
        basic.addHeader("Authorization", "Basic dXNlcjpwYXNz");
        assertThat(ApiKeyFilter.presentedKey(basic)).as("not a bearer token").isNull();
        basic.addHeader(ApiKeyFilter.HEADER, "lk_x");
        assertThat(ApiKeyFilter.presentedKey(basic)).isEqualTo("lk_x");
    }

    @Test
    void aRequestWithoutAKeyGoesOnAnonymous() throws Exception {
        AuthenticationManager manager = mock(AuthenticationManager.class);
        MockFilterChain chain = new MockFilterChain();
        MockHttpServletResponse response = new MockHttpServletResponse();
        new ApiKeyFilter(manager, problems).doFilter(new MockHttpServletRequest("GET", "/v1/about"), response, chain);
        assertThat(chain.getRequest()).isNotNull();
        assertThat(response.getStatus()).isEqualTo(200);
        verify(manager, never()).authenticate(any());
        assertThat(SecurityContextHolder.getContext().getAuthentication()).isNull();
    }

    @Test
    void aResolvedKeySetsTheCallerForThisRequestAndItsAsyncDispatch() throws Exception {
        String key = storedKey(false, Quotas.Overrides.NONE);
        KeyAuthenticationProvider provider = provider(ADMIN_KEY);
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/v1/documents");
        request.addHeader("Authorization", "Bearer " + key);
        MockHttpServletResponse response = new MockHttpServletResponse();
        FilterChain chain = mock(FilterChain.class);
        new ApiKeyFilter(provider::authenticate, problems).doFilter(request, response, chain);
        verify(chain).doFilter(request, response);
        assertThat(response.getStatus()).isEqualTo(200);
        Caller caller =
                (Caller) SecurityContextHolder.getContext().getAuthentication().getPrincipal();
        assertThat(caller.tenantId()).isEqualTo(TENANT);
        var saved = new RequestAttributeSecurityContextRepository()
                .loadDeferredContext(request)
                .get();
        assertThat(((Caller) saved.getAuthentication().getPrincipal()).tenantId())
                .isEqualTo(TENANT);
    }

    @Test
    void aKeyThatDoesNotResolveIsRefusedWith401WhateverThePath() throws Exception {
        when(repository.findActiveByHash(any())).thenReturn(List.of());
        SecurityContextHolder.getContext()
                .setAuthentication(new TestingAuthenticationToken(Caller.admin(), null, "ROLE_ADMIN"));
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/v1/about");
        String key = ApiKeys.newKey();
        request.addHeader(ApiKeyFilter.HEADER, key);
        MockHttpServletResponse response = new MockHttpServletResponse();
        FilterChain chain = mock(FilterChain.class);
        new ApiKeyFilter(provider(ADMIN_KEY)::authenticate, problems).doFilter(request, response, chain);
        verify(chain, never()).doFilter(any(), any());
        assertThat(response.getStatus()).isEqualTo(401);
        assertThat(response.getHeader("WWW-Authenticate")).contains("invalid_token");
        assertThat(response.getContentAsString())
                .contains("has been revoked")
                .contains(key.substring(0, 11))
                .doesNotContain(key.substring(11));
        assertThat(SecurityContextHolder.getContext().getAuthentication())
                .as("no caller left on the thread")
                .isNull();
    }

    // --- RequestRateLimit

    private static Caller tenantCaller(UUID tenant, long perMinute) {
        return new Caller(
                Caller.Kind.TENANT, tenant, UUID.randomUUID(), "lk_test", false, new Quotas(perMinute, 0, 0, 0));
    }

    private static int send(RequestRateLimit limit, Caller caller) throws Exception {
        SecurityContextHolder.getContext().setAuthentication(KeyAuthentication.of(caller));
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        limit.doFilter(new MockHttpServletRequest("GET", "/v1/documents"), response, chain);
        assertThat(chain.getRequest() != null)
                .as("the request goes on exactly when it is not refused")
                .isEqualTo(response.getStatus() != 429);
        return response.getStatus();
    }

    @Test
    void aTenantMaySendItsLimitPerMinuteAndIsRefusedPastItWithRetryAfter() throws Exception {
        RequestRateLimit limit = new RequestRateLimit(problems);
        Caller caller = tenantCaller(TENANT, 3);
        for (int i = 0; i < 3; i++) {
            assertThat(send(limit, caller)).as("request %d of 3", i + 1).isEqualTo(200);
        }
        SecurityContextHolder.getContext().setAuthentication(KeyAuthentication.of(caller));
        MockHttpServletResponse refused = new MockHttpServletResponse();
        limit.doFilter(new MockHttpServletRequest("GET", "/v1/documents"), refused, new MockFilterChain());
        assertThat(refused.getStatus()).isEqualTo(429);
        // 3 per minute: the next token comes in 20 s less the few milliseconds since the first request, rounded up.
        assertThat(refused.getHeader("Retry-After")).isEqualTo("20");
        assertThat(refused.getContentAsString())
                .contains("requests-per-minute")
                .contains("\"limit\":3")
                .contains("3 requests per minute")
                .contains("resetsAt");

        assertThat(send(limit, tenantCaller(UUID.randomUUID(), 3)))
                .as("another tenant has its own bucket")
                .isEqualTo(200);
        assertThat(send(limit, tenantCaller(TENANT, 4)))
                .as("a changed limit starts a new bucket")
                .isEqualTo(200);
    }

    @Test
    void theOperatorTheServiceItselfAnUnlimitedTenantAndAnonymousRequestsAreNotLimited() throws Exception {
        RequestRateLimit limit = new RequestRateLimit(problems);
        Caller internal = new Caller(Caller.Kind.INTERNAL, TENANT, null, "internal", false, new Quotas(1, 0, 0, 0));
        for (Caller caller : List.of(Caller.admin(), internal, tenantCaller(TENANT, 0))) {
            for (int i = 0; i < 3; i++) {
                assertThat(send(limit, caller))
                        .as(caller.kind() + " request " + i)
                        .isEqualTo(200);
            }
        }
        SecurityContextHolder.clearContext();
        for (int i = 0; i < 3; i++) {
            MockHttpServletResponse response = new MockHttpServletResponse();
            MockFilterChain chain = new MockFilterChain();
            limit.doFilter(new MockHttpServletRequest("GET", "/v1/about"), response, chain);
            assertThat(chain.getRequest()).isNotNull();
        }
        SecurityContextHolder.getContext().setAuthentication(new TestingAuthenticationToken("someone", null));
        MockFilterChain chain = new MockFilterChain();
        limit.doFilter(new MockHttpServletRequest("GET", "/v1/about"), new MockHttpServletResponse(), chain);
        assertThat(chain.getRequest()).as("a principal that is no caller").isNotNull();
    }

    @Test
    void onlyATenantsKeyWithALimitIsRateLimited() {
        assertThat(tenantCaller(TENANT, 1).rateLimited()).isTrue();
        assertThat(tenantCaller(TENANT, 0).rateLimited()).isFalse();
        assertThat(new Caller(Caller.Kind.INTERNAL, TENANT, null, "internal", false, new Quotas(1, 0, 0, 0))
                        .rateLimited())
                .isFalse();
        assertThat(new Caller(Caller.Kind.ADMIN, TENANT, null, "admin", true, new Quotas(1, 0, 0, 0)).rateLimited())
                .isFalse();
    }

    // --- CurrentTenant

    @Test
    void theCurrentTenantIsTheCallersAndWithKeysOffTheDefault() {
        CurrentTenant required = new CurrentTenant(new SecuritySettings(ADMIN_KEY));
        CurrentTenant open = new CurrentTenant(new SecuritySettings(null));

        assertThat(open.id()).isEqualTo(CurrentTenant.DEFAULT);
        assertThatThrownBy(required::id)
                .as("a background job asking while keys are required")
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("background job");

        SecurityContextHolder.getContext().setAuthentication(new TestingAuthenticationToken("not a caller", null));
        assertThat(CurrentTenant.caller()).isEmpty();
        assertThatThrownBy(required::id).isInstanceOf(IllegalStateException.class);

        SecurityContextHolder.getContext().setAuthentication(KeyAuthentication.of(tenantCaller(TENANT, 0)));
        assertThat(required.id()).isEqualTo(TENANT);
        assertThat(open.id()).as("a caller wins in either mode").isEqualTo(TENANT);
        assertThat(CurrentTenant.caller()).map(Caller::tenantId).contains(TENANT);
    }

    // --- SecuritySettings and quota overrides

    @Test
    void anAdminKeyShorterThan32CharactersIsRefusedAndABlankOneMeansKeysOff() {
        assertThatThrownBy(() -> new SecuritySettings("x".repeat(31))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SecuritySettings("  " + "x".repeat(31) + "  "))
                .as("measured stripped")
                .isInstanceOf(IllegalArgumentException.class);
        SecuritySettings exactly = new SecuritySettings(" " + "x".repeat(32) + " ");
        assertThat(exactly.adminKey()).isEqualTo("x".repeat(32));
        assertThat(exactly.keysRequired()).isTrue();
        assertThat(exactly.mode()).isEqualTo("api-keys");
        for (String off : new String[] {null, "", "   "}) {
            SecuritySettings settings = new SecuritySettings(off);
            assertThat(settings.adminKey()).isNull();
            assertThat(settings.keysRequired()).isFalse();
            assertThat(settings.mode()).isEqualTo("off");
        }
    }

    @Test
    void eachOverrideReplacesItsDefaultAndOnlyItsOwn() {
        Quotas defaults = new Quotas(1, 2, 3, 4);
        assertThat(Quotas.Overrides.NONE.over(defaults)).isEqualTo(defaults);
        assertThat(new Quotas.Overrides(10L, null, null, null).over(defaults)).isEqualTo(new Quotas(10, 2, 3, 4));
        assertThat(new Quotas.Overrides(null, 20L, null, null).over(defaults)).isEqualTo(new Quotas(1, 20, 3, 4));
        assertThat(new Quotas.Overrides(null, null, 30L, null).over(defaults)).isEqualTo(new Quotas(1, 2, 30, 4));
        assertThat(new Quotas.Overrides(null, null, null, 0L).over(defaults)).isEqualTo(new Quotas(1, 2, 3, 0));
        assertThat(QUOTA_DEFAULTS.defaults()).isEqualTo(new Quotas(600, 1000, 10, 0));
    }
}
