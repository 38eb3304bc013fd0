-- Each sendout keeps the number of its Pending messages and of those held, so that a scrape of /metrics sums the
-- marked sendouts' tallies instead of counting the outbox: it costs the same whatever the backlog
-- (docs/decisions.md, "Many servers, one service"). Every statement that queues, settles, holds or cancels
-- messages moves them by what it changed; the worker sets both to 0 when it clears a drained sendout's mark.
ALTER TABLE sendouts
    ADD COLUMN outbox_pending bigint NOT NULL DEFAULT 0,
    ADD COLUMN outbox_held bigint NOT NULL DEFAULT 0;

UPDATE sendouts s SET outbox_pending = t.pending, outbox_held = t.held
FROM (SELECT account_id, sendout_id, count(*) AS pending, count(hold_kind) AS held
      FROM outbox WHERE status = 'Pending' GROUP BY account_id, sendout_id) t
WHERE s.account_id = t.account_id AND s.id = t.sendout_id;
