ALTER TABLE respondents SET (fillfactor = 70);
