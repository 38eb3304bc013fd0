ALTER TABLE respondents DROP COLUMN language;
