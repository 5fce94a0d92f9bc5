-- Threads: questions asked one after another, each follow-up rewritten in the light of the earlier turns.
CREATE TABLE question_thread (
    id         uuid PRIMARY KEY,
    tenant_id  uuid NOT NULL REFERENCES tenant (id) ON DELETE CASCADE,
    title      text,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX question_thread_tenant_idx ON question_thread (tenant_id, created_at DESC);

-- A thread's questions go with it (and their trace events with them).
ALTER TABLE question
    ADD COLUMN thread_id           uuid REFERENCES question_thread (id) ON DELETE CASCADE,
    ADD COLUMN standalone_question text,
    ADD COLUMN rewrite_note        text;
CREATE INDEX question_thread_turns_idx ON question (thread_id, created_at) WHERE thread_id IS NOT NULL;
