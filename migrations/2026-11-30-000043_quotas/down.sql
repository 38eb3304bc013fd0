ALTER TABLE answer_sets DROP COLUMN quota_full;
DROP TABLE quotas;
