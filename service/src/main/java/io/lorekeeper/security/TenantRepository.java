package io.lorekeeper.security;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.LockModeType;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;

/** The tenants. */
interface TenantRepository extends JpaRepository<Tenant, UUID> {

    List<Tenant> findAllByOrderByCreatedAtAscNameAsc();

    /** The tenant locked ({@code FOR UPDATE}) until the transaction ends: a second deletion waits, then finds it gone. */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    Optional<Tenant> findLockedById(UUID id);
}
