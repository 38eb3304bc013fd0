-- TWOWAY conversations send messages of their own (the next question, a thank-you): their text is kept with the
-- message instead of coming from the sendout or a reminder.
ALTER TABLE outbox ADD COLUMN body TEXT;
