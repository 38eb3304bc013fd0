-- Quotas: a survey's "200 answers from each region". `conditions` is the quota's `when` in the API's JSON shape;
-- `count` is the completed answer sets it has counted, never above `quota_limit` (the completion that counts reads
-- the survey's quotas FOR UPDATE first). An answer set that a full `endSurvey` quota held is not completed and
-- marked `quota_full`.
CREATE TABLE quotas (
    account_id  BIGINT      NOT NULL,
    id          BIGSERIAL   NOT NULL,
    survey_id   BIGINT      NOT NULL,
    name        TEXT        NOT NULL,
    conditions  JSONB       NOT NULL,
    quota_limit BIGINT      NOT NULL CHECK (quota_limit > 0),
    action      TEXT        NOT NULL CHECK (action IN ('endSurvey', 'closeSurvey')),
    count       BIGINT      NOT NULL DEFAULT 0 CHECK (count >= 0),
    created_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, survey_id) REFERENCES surveys (account_id, id) ON DELETE CASCADE
);
CREATE INDEX quotas_survey_idx ON quotas (account_id, survey_id, id);

ALTER TABLE answer_sets ADD COLUMN quota_full BOOLEAN NOT NULL DEFAULT false;
