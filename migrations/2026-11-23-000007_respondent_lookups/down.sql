DROP INDEX respondents_contact_key_idx;
DROP INDEX sendouts_id_idx;
