-- The relay's (or SMS endpoint's) answer that accepted a message. A message recorded with one stands for its
-- respondent's `sent` or `reminderSent` timeline event, which is read from it instead of being written as a row of
-- `respondent_events`: a round records one row less per message (docs/decisions.md, "A sent message is its own
-- timeline event"). Messages sent before this migration keep their stored events and have none.
ALTER TABLE outbox ADD COLUMN accepted_reply text;
