-- Every respondent's timeline (issue 42; the contract's "Contacts and personal invitations"): what happened to it,
-- each event written in the same transaction as the change that causes it, by the statement's own adapter code.
-- The events go with their respondent (ON DELETE CASCADE: a retention run or an erasure that removes it removes
-- them). A page's first view is one event: the partial unique index keeps a second view from adding another.
CREATE TABLE respondent_events (
    account_id    BIGINT      NOT NULL,
    id            BIGSERIAL   NOT NULL,
    respondent_id BIGINT      NOT NULL,
    at            TIMESTAMPTZ NOT NULL,
    kind          TEXT        NOT NULL CHECK (kind IN ('added', 'released', 'frequencyLimited', 'blocklisted',
                                  'held', 'deferred', 'sent', 'bounced', 'failed', 'expired', 'pageViewed',
                                  'pageSaved', 'completed', 'optedOut', 'reminderSent')),
    detail        JSONB       CHECK (detail IS NULL OR jsonb_typeof(detail) = 'object'),
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, respondent_id) REFERENCES respondents (account_id, id) ON DELETE CASCADE
);

CREATE INDEX respondent_events_respondent ON respondent_events (account_id, respondent_id, id);

CREATE UNIQUE INDEX respondent_events_page_viewed ON respondent_events (account_id, respondent_id, (detail ->> 'pageId'))
    WHERE kind = 'pageViewed';
