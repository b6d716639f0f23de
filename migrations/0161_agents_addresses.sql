-- +goose Up
-- The agents and the addresses the intake routes their mail by. The agents data layer
-- (migration 0120) creates the same table with the agents' settings; this one creates it
-- only where that has not run, so routing and its tests stand on either.
CREATE TABLE IF NOT EXISTS agents (
    id         text PRIMARY KEY CHECK (id ~ '^[a-z][a-z0-9-]{0,39}$'),
    name       text NOT NULL CHECK (name <> ''),
    addresses  text[] NOT NULL DEFAULT '{}',
    settings   jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO agents (id, name) VALUES ('billing', 'Billing') ON CONFLICT DO NOTHING;

-- +goose Down
-- Left in place: the agents data layer may own the table.
SELECT 1;
