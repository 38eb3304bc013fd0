-- An account's settings: the floor of the smallest group a breakdown of its results shows (`minGroupSize`). No row
-- means the defaults (a floor of 1).
CREATE TABLE account_settings (
    account_id     BIGINT  NOT NULL PRIMARY KEY REFERENCES accounts (id),
    min_group_size INTEGER NOT NULL CHECK (min_group_size BETWEEN 1 AND 10000)
);
