DROP INDEX CONCURRENTLY IF EXISTS answer_sets_copy_of_idx;
