ALTER TABLE surveys DROP COLUMN tree_version;
