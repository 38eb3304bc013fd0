-- A sendout's statistics read its respondents' answer sets by sendout (one index range instead of one probe per
-- respondent). Built CONCURRENTLY: answer sets take writes meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS answer_sets_sendout_idx ON answer_sets (account_id, sendout_id)
    WHERE sendout_id IS NOT NULL;
