-- +goose Up
-- The headings of a section's subsections (policy.Chunk.Subheadings), which its text holds
-- as lines: the drafter reads them as titles and never quotes them as statements. Chunks
-- imported before keep none until their documents are imported again as new versions.
ALTER TABLE chunks ADD COLUMN subheadings text[] NOT NULL DEFAULT '{}';

-- +goose Down
ALTER TABLE chunks DROP COLUMN subheadings;
