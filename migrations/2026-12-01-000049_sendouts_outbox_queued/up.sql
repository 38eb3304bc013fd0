-- A sendout whose outbox holds Pending messages carries a mark, so that the delivery worker's list of due sendouts
-- reads only those through a partial index: an idle poll costs the same at 10 and at 100,000 Active sendouts
-- (docs/decisions.md, "Many servers, one service"). Every statement that queues a message sets it in the same
-- transaction; the worker clears it, under the sendout's row lock, once no Pending message is left.
ALTER TABLE sendouts ADD COLUMN outbox_queued boolean NOT NULL DEFAULT false;

UPDATE sendouts s SET outbox_queued = true
WHERE EXISTS (SELECT 1 FROM outbox o WHERE o.account_id = s.account_id AND o.sendout_id = s.id AND o.status = 'Pending');

CREATE INDEX sendouts_outbox_queued_idx ON sendouts (account_id, id) WHERE outbox_queued;
