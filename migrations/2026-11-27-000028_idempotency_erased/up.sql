-- An erasure (`POST /accounts/erasure`) erases the kept answers that hold the person it erases: the row stays, in
-- the new state `erased`, with no status, content type or body, so that a repeat of its key answers 410 instead of
-- carrying the request out again, which would bring the person back (docs/idempotency.md). Code still running
-- during the deployment reads an `erased` row as a running claim and answers 409 to a repeat: it runs nothing
-- either. Both checks are added apart and validated without blocking writes, as Citus wants.
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_state_check;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_state_check
    CHECK (state IN ('running', 'done', 'erased')) NOT VALID;
ALTER TABLE idempotency_keys VALIDATE CONSTRAINT idempotency_keys_state_check;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_erased_check
    CHECK (state <> 'erased' OR (status IS NULL AND content_type IS NULL AND body IS NULL)) NOT VALID;
ALTER TABLE idempotency_keys VALIDATE CONSTRAINT idempotency_keys_erased_check;
