DROP INDEX CONCURRENTLY IF EXISTS outbox_respondent_key_idx;
