DROP TABLE respondent_events;
