-- The E.164 numbers an account's TWOWAY sendouts send from and receive replies on, provisioned by an operator
-- (`canvass sender add`). A number belongs to at most one account: the unique key on `number` alone is the
-- look-up of an inbound reply, which knows the number it was sent to and no account (as `sendouts_id_idx` is for
-- the login page).
CREATE TABLE sender_numbers (
    account_id BIGINT      NOT NULL REFERENCES accounts (id),
    number     TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, number),
    CONSTRAINT sender_numbers_number_key UNIQUE (number)
);
