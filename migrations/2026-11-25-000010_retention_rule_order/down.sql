ALTER TABLE retention_rules DROP COLUMN created_order;
