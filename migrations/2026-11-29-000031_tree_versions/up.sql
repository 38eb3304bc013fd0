-- The version of a survey's question tree: 1 at creation (and in a copy), one more with every change of its pages,
-- items or logic. The change that moves it holds the survey's row until it commits, so changes of one tree run
-- one after another and none is lost.
ALTER TABLE surveys ADD COLUMN tree_version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE surveys ADD CONSTRAINT surveys_tree_version_check CHECK (tree_version >= 1);
