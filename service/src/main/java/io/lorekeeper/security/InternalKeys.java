package io.lorekeeper.security;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

/**
 * Keys this process hands to itself when it calls its own HTTP API for a tenant (an evaluation
 * run is a client of the service): random like a tenant's key, valid only in this process and
 * only while the work holds its lease, never stored anywhere.
 */
@Component
public class InternalKeys {

    private final Map<ByteBuffer, UUID> active = new ConcurrentHashMap<>();

    /** A key acting for the tenant; close the lease when the work is done. */
    public Lease issue(UUID tenantId) {
        String key = ApiKeys.newKey();
        ByteBuffer hash = ByteBuffer.wrap(ApiKeys.hash(key));
        active.put(hash, tenantId);
        return new Lease(key, () -> active.remove(hash));
    }

    Optional<UUID> tenantOf(String presented) {
        return Optional.ofNullable(active.get(ByteBuffer.wrap(ApiKeys.hash(presented))));
    }

    public static final class Lease implements AutoCloseable {
        private final String key;
        private final Runnable release;

        private Lease(String key, Runnable release) {
            this.key = key;
            this.release = release;
        }

        public String key() {
            return key;
        }

        @Override
        public void close() {
            release.run();
        }

        @Override
        public String toString() {
            return "InternalKeys.Lease[" + ApiKeys.masked(key) + "]";
        }
    }
}
