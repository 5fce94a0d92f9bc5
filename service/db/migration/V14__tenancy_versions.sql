-- Optimistic locking for the tenancy entities (Tenant, ApiKey), as V12 did for question and
-- evaluation: two replicas that read the same key cannot both revoke it, one of them is refused.
ALTER TABLE tenant ADD COLUMN version bigint NOT NULL DEFAULT 0;
ALTER TABLE api_key ADD COLUMN version bigint NOT NULL DEFAULT 0;
