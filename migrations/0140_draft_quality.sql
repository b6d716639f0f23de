-- +goose Up
-- The draft-quality rubric's scores per criterion (forbidden phrases, human-sounding, brand
-- vocabulary, formatting, tone) with the spans that broke a rule, and the writer's category
-- (a triage bucket) and its short reasoning for the reviewer. Drafts saved before carry
-- NULL and empty strings: they were never scored, which the pages say.
ALTER TABLE drafts
    ADD COLUMN rubric    jsonb,
    ADD COLUMN category  text NOT NULL DEFAULT '',
    ADD COLUMN reasoning text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE drafts DROP COLUMN rubric, DROP COLUMN category, DROP COLUMN reasoning;
