ALTER TABLE bg_labels ADD CONSTRAINT bg_labels_account_id_sendout_id_name_key UNIQUE (account_id, sendout_id, name);
DROP INDEX bg_labels_name_nocase_key;
