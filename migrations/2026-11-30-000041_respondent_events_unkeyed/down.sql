ALTER TABLE respondent_events ADD FOREIGN KEY (account_id, respondent_id)
    REFERENCES respondents (account_id, id) ON DELETE CASCADE;
