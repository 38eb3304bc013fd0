DROP INDEX sendouts_id_idx;
