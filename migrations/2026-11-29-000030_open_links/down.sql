DROP INDEX sendouts_open_link_handle_key;
ALTER TABLE sendouts DROP CONSTRAINT sendouts_max_responses_check;
ALTER TABLE sendouts DROP CONSTRAINT sendouts_open_link_check;
ALTER TABLE sendouts DROP COLUMN open_link_handle, DROP COLUMN max_responses, DROP COLUMN one_response_per_browser;
ALTER TABLE sendouts DROP CONSTRAINT sendouts_dispatch_type_check;
ALTER TABLE sendouts ADD CONSTRAINT sendouts_dispatch_type_check
    CHECK (dispatch_type IN ('EMAIL', 'SMS', 'LOGIN', 'TWOWAY'));
