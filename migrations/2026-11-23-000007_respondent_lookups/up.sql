-- The respondent's side finds respondents without knowing the account: a LOGIN sendout's login page knows only
-- the sendout id, an inbound TWOWAY reply only the sender's number.
CREATE INDEX sendouts_id_idx ON sendouts (id);
CREATE INDEX respondents_contact_key_idx ON respondents (contact_key);
