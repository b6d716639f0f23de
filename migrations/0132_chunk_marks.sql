-- +goose Up
-- A section's marks from its front matter (policy.Chunk): fixed wording is quoted only word
-- for word; a section for agents is never quoted to a customer.
ALTER TABLE chunks ADD COLUMN fixed boolean NOT NULL DEFAULT false;
ALTER TABLE chunks ADD COLUMN audience text NOT NULL DEFAULT 'customers' CHECK (audience IN ('customers', 'agents'));

-- +goose Down
ALTER TABLE chunks DROP COLUMN audience;
ALTER TABLE chunks DROP COLUMN fixed;
