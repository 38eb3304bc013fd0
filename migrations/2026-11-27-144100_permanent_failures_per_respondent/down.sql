DROP INDEX CONCURRENTLY IF EXISTS permanent_failures_failure_key;
