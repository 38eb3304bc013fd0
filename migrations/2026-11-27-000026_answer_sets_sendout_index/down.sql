DROP INDEX CONCURRENTLY IF EXISTS answer_sets_sendout_idx;
