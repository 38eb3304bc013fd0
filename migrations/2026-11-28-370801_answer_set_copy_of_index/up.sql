-- The erasure's search for the copies of a person's answer sets (`answer_sets.copy_of`, the migration before).
-- Built CONCURRENTLY: answer sets take writes meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS answer_sets_copy_of_idx ON answer_sets (account_id, copy_of)
    WHERE copy_of IS NOT NULL;
