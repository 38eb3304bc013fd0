-- A delivery round writes one timeline event per message beside its respondent's update. The foreign key to
-- `respondents` ran one referential check per event row (a KEY SHARE lock on a row the same round then updates)
-- and cost the round about 40 % of its throughput (docs/benchmarks.md, "Timelines and the round"). Without it,
-- the two statements that delete respondents (retention's removal and erasure) delete their events in the same
-- statement; surveys and sendouts are never deleted.
ALTER TABLE respondent_events DROP CONSTRAINT respondent_events_account_id_respondent_id_fkey;
