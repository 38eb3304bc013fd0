DROP INDEX respondents_contact;
ALTER TABLE respondents DROP COLUMN contact_id;
DROP TABLE contact_list_members;
DROP TABLE contact_lists;
