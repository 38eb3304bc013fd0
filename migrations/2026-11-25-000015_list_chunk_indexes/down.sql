DROP INDEX blocklist_created_idx;
DROP INDEX respondents_sendout_id_idx;
DROP INDEX answer_sets_survey_id_idx;
