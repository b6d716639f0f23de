-- +goose Up
-- The policy store: documents, their versions with every metadata field of the corpus
-- format, the chunks drafts cite, and an audit of approvals. Eligibility is enforced here,
-- in the schema, not only in Go: two eligible versions of one doc_id can never overlap.
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE TABLE documents (
    doc_id     text PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE versions (
    id             bigserial PRIMARY KEY,
    doc_id         text NOT NULL REFERENCES documents (doc_id),
    version        integer NOT NULL CHECK (version >= 1),
    status         text NOT NULL CHECK (status IN ('draft', 'approved', 'superseded')),
    source         text NOT NULL CHECK (source IN ('wiki', 'helpcenter', 'macro')),
    title          text NOT NULL,
    area           text NOT NULL,
    effective_from timestamptz,
    effective_to   timestamptz,
    approved_at    timestamptz,
    plans          text[] NOT NULL DEFAULT '{}',
    regions        text[] NOT NULL DEFAULT '{}',
    locale         text NOT NULL DEFAULT 'en',
    owner          text NOT NULL DEFAULT '',
    path           text NOT NULL DEFAULT '',
    content_hash   text NOT NULL,
    body           text NOT NULL,
    imported_at    timestamptz NOT NULL DEFAULT now(),
    -- The instants at which this version may be quoted: from the later of approval and
    -- effect, to effective_to (exclusive). NULL for drafts, which are never eligible.
    eligible_window tstzrange GENERATED ALWAYS AS (
        CASE WHEN status = 'draft' THEN NULL
             ELSE tstzrange(greatest(effective_from, approved_at), effective_to, '[)') END
    ) STORED,
    UNIQUE (doc_id, version),
    CONSTRAINT approved_needs_scope CHECK (
        status = 'draft' OR (effective_from IS NOT NULL AND approved_at IS NOT NULL
                             AND cardinality(plans) > 0 AND cardinality(regions) > 0)),
    CONSTRAINT window_is_ordered CHECK (
        effective_to IS NULL OR effective_to > greatest(effective_from, approved_at)),
    CONSTRAINT one_eligible_version_per_doc EXCLUDE USING gist (
        doc_id WITH =, eligible_window WITH &&) WHERE (status <> 'draft')
);
CREATE INDEX versions_window ON versions USING gist (eligible_window) WHERE status <> 'draft';

CREATE TABLE chunks (
    id         text PRIMARY KEY, -- doc_id@version#anchor
    version_id bigint NOT NULL REFERENCES versions (id) ON DELETE CASCADE,
    anchor     text NOT NULL,
    heading    text NOT NULL,
    ord        integer NOT NULL,
    text       text NOT NULL,
    embedder   text NOT NULL,
    embedding  vector NOT NULL,
    -- 'simple' keeps every language's words as they are: the corpus mixes English and German.
    tsv        tsvector GENERATED ALWAYS AS (to_tsvector('simple', heading || ' ' || text)) STORED,
    UNIQUE (version_id, anchor)
);
CREATE INDEX chunks_version ON chunks (version_id);

CREATE TABLE approvals (
    id      bigserial PRIMARY KEY,
    doc_id  text NOT NULL,
    version integer NOT NULL,
    action  text NOT NULL CHECK (action IN ('imported', 'approved', 'superseded')),
    detail  text NOT NULL DEFAULT '',
    at      timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE approvals;
DROP TABLE chunks;
DROP TABLE versions;
DROP TABLE documents;
