-- Tenants with API keys and quotas. A key is stored only as the SHA-256 of its text (a key carries
-- 256 random bits, so a fast hash cannot be brute-forced) plus a short prefix to recognise it by.
CREATE TABLE api_key (
    id           uuid PRIMARY KEY,
    tenant_id    uuid NOT NULL REFERENCES tenant (id) ON DELETE CASCADE,
    name         text NOT NULL,
    prefix       text NOT NULL,
    key_hash     bytea NOT NULL UNIQUE,
    can_evaluate boolean NOT NULL DEFAULT false,
    created_at   timestamptz NOT NULL DEFAULT now(),
    revoked_at   timestamptz
);
CREATE INDEX api_key_tenant_idx ON api_key (tenant_id, created_at);

-- Per-tenant overrides of lorekeeper.quotas.*; NULL means the configured default.
ALTER TABLE tenant
    ADD COLUMN requests_per_minute integer,
    ADD COLUMN max_stored_bytes    bigint,
    ADD COLUMN max_documents       integer,
    ADD COLUMN llm_tokens_per_day  bigint;

-- Deleting a tenant deletes what it owns; the document's own children already cascade from it.
ALTER TABLE document DROP CONSTRAINT document_tenant_id_fkey,
    ADD CONSTRAINT document_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenant (id) ON DELETE CASCADE;
ALTER TABLE question DROP CONSTRAINT question_tenant_id_fkey,
    ADD CONSTRAINT question_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenant (id) ON DELETE CASCADE;

-- The stored-bytes quota sums this; kept by a trigger so that every path that writes the text
-- (a new document, appended sessions) counts without knowing about quotas.
ALTER TABLE document ADD COLUMN text_bytes bigint NOT NULL DEFAULT 0;
UPDATE document d SET text_bytes = octet_length(t.text) FROM document_text t WHERE t.document_id = d.id;

CREATE FUNCTION lk_document_text_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE document SET text_bytes = octet_length(NEW.text) WHERE id = NEW.document_id;
    RETURN NULL;
END $$;
CREATE TRIGGER document_text_bytes AFTER INSERT OR UPDATE OF text ON document_text
    FOR EACH ROW EXECUTE FUNCTION lk_document_text_bytes();

-- Cached replies are derived from a tenant's documents: they are keyed per tenant (a hit must not
-- tell one tenant what another asked) and deleted with it.
ALTER TABLE llm_cache ADD COLUMN tenant_id uuid;
CREATE INDEX llm_cache_tenant_idx ON llm_cache (tenant_id) WHERE tenant_id IS NOT NULL;
