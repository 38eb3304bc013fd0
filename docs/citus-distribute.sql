-- Distributes Canvass's schema by account on a Citus coordinator (docs/scaling.md, "Distributing with Citus").
--
-- Run it once, on the coordinator, after `canvass migrate` has made the tables, and before the service serves from
-- the coordinator:
--
--     psql "$COORDINATOR_URL" -v ON_ERROR_STOP=1 -f docs/citus-distribute.sql
--
-- The tables may already hold rows: Citus copies them into the shards. Every line below is checked against the
-- migrations' foreign keys by crates/dev/canvass-statements/tests/distribute_script.rs (`just test`): every table of
-- the schema has exactly one line, the reference tables are those of crates/dev/canvass-statements/src/tables.rs, and
-- every table comes after the tables it references.

CREATE EXTENSION IF NOT EXISTS citus;

BEGIN;

-- Without this, create_reference_table('accounts') would turn every table with a foreign key to `accounts` (all of
-- them) into a Citus local table on the coordinator, and create_distributed_table would then refuse them. Off, the
-- tables stay plain until their own line below distributes them. For this session only.
SET LOCAL citus.enable_local_reference_table_foreign_keys = off;

-- Creating tables with foreign keys to reference tables in the transaction that made those reference tables:
-- Citus needs the shards' commands over one connection per node, or it refuses the later ones ("cannot execute
-- parallel ... after a reference table was modified/created in the same transaction").
SET LOCAL citus.multi_shard_modify_mode = 'sequential';

-- Reference tables: a full copy on every node. Small, written rarely, and read before the account is known
-- (a key by its prefix, a login page by its sendout id, a reply by its number). Their foreign keys go to
-- `accounts` only: Citus refuses a foreign key from a reference table to a distributed one.
SELECT create_reference_table('accounts');
SELECT create_reference_table('api_keys');
-- Every retention run, read beside each account's own figures of it.
SELECT create_reference_table('retention_runs');
SELECT create_reference_table('sender_numbers');
SELECT create_reference_table('login_sendouts');
SELECT create_reference_table('delivery_pace');

-- Account tables: distributed by account_id, all in one co-location group (colocate_with => 'users'), so that an
-- account's rows of every table live on one node and the joins and foreign keys between them stay on it. Each
-- table comes after the tables it references.
SELECT create_distributed_table('users', 'account_id');
SELECT create_distributed_table('categories', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('surveys', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('survey_pages', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('question_items', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('logic_rules', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('survey_translations', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('sendouts', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('respondents', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('answer_sets', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('answers', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('bg_documents', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('bg_labels', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('reminders', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('blocklist', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('permanent_failures', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('account_frequency_settings', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('account_settings', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('survey_frequency_settings', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('retention_rules', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('account_retention_policies', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('survey_retention_policies', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('outbox', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('webhooks', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('webhook_deliveries', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('idempotency_keys', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('contacts', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('contact_lists', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('contact_list_members', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('respondent_events', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('quotas', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('alerts', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('alert_emails', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('audit_events', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('erasure_receipts', 'account_id', colocate_with => 'users');
SELECT create_distributed_table('retention_run_figures', 'account_id', colocate_with => 'users');

COMMIT;
