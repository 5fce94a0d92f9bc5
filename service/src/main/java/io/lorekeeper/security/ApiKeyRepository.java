package io.lorekeeper.security;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

/** The tenants' API keys. */
interface ApiKeyRepository extends JpaRepository<ApiKey, UUID> {

    List<ApiKey> findByTenantIdOrderByCreatedAtAscIdAsc(UUID tenantId);

    Optional<ApiKey> findByIdAndTenantId(UUID id, UUID tenantId);

    /** An active key and its tenant. */
    record Active(ApiKey key, Tenant tenant) {}

    /**
     * The active key with this hash and its tenant, for every authenticated request: one query,
     * found by the unique index on the hash.
     */
    default List<Active> findActiveByHash(byte[] hash) {
        return findActiveRowsByHash(hash).stream()
                .map(row -> new Active((ApiKey) row[0], (Tenant) row[1]))
                .toList();
    }

    @Query(
            "select k, t from ApiKey k join Tenant t on t.id = k.tenantId where k.keyHash = :hash and k.revokedAt is null")
    List<Object[]> findActiveRowsByHash(byte[] hash);
}
