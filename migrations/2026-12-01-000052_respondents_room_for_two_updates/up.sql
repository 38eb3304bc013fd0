-- A respondent is updated twice before anyone answers: its activation (Pending to Scheduled, `released_at` set, an
-- update that writes every index because `released_at` is in one) and its invitation's outcome (Scheduled to Sent).
-- At fillfactor 70 the first used the page's room, and 35 % of the second wrote nine index entries; at 50 both find
-- room and nine in ten of the second are HOT (WAL records a respondent's Sent: 3.98 to 1.78; docs/benchmarks.md,
-- stop 68). The cost: pages half full as they are written, about 40 % more pages than at 70. Existing pages get
-- the room as they are rewritten.
ALTER TABLE respondents SET (fillfactor = 50);
