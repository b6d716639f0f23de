-- +goose Up
-- Eligible retrieval filters on plan and region with array overlap (plans && {'*', plan});
-- GIN indexes let the planner find a small eligible set without scanning every version.
CREATE INDEX versions_plans ON versions USING gin (plans);
CREATE INDEX versions_regions ON versions USING gin (regions);

-- +goose Down
DROP INDEX versions_regions;
DROP INDEX versions_plans;
