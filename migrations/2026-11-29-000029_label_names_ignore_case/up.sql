-- A sendout's label names are unique whatever their case: "Region" and "region" are one label, as people read
-- them (and as a background data document's columns, matched by name, must be). Names that already differ only in
-- case keep the first (the lowest id); each later one gets its id appended, so none is lost.
UPDATE bg_labels AS later SET name = later.name || ' (' || later.id || ')'
WHERE EXISTS (
    SELECT 1 FROM bg_labels AS first
    WHERE first.account_id = later.account_id AND first.sendout_id = later.sendout_id
      AND lower(first.name) = lower(later.name) AND first.id < later.id
);
CREATE UNIQUE INDEX bg_labels_name_nocase_key ON bg_labels (account_id, sendout_id, lower(name));
ALTER TABLE bg_labels DROP CONSTRAINT bg_labels_account_id_sendout_id_name_key;
