-- Relay and sender trouble holds a message without counting an attempt (issue 21, the contract's "Whom a refusal
-- blames"): each hold is counted here instead, and sets the hold's backoff (5 s, doubling, at most 5 minutes).
ALTER TABLE outbox ADD COLUMN holds integer NOT NULL DEFAULT 0;
