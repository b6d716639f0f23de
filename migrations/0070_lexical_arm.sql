-- +goose Up
-- The lexical arm of retrieval (store/lexical.go). Each chunk carries a weighted tsvector
-- of its document's title (A), its section heading (B) and its text (D), each read twice:
-- with the English stemmer, so "charged" meets "charges", and with 'simple', so words of
-- other languages and codes keep their exact form. lex_len is its number of positions,
-- the chunk length BM25 normalises by. Postgres's own ranking has no inverse document
-- frequency, so the store keeps its term statistics: lexemes holds how many chunks carry
-- each lexeme and lexicon the totals, both updated by store.Import in the transaction
-- that adds the chunks.
-- +goose StatementBegin
CREATE FUNCTION chunk_lex(title text, heading text, body text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', heading), 'B')
        || setweight(to_tsvector('english', body), 'D')
        || setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', heading), 'B')
        || setweight(to_tsvector('simple', body), 'D')
$$;
-- +goose StatementEnd

ALTER TABLE chunks ADD COLUMN lex tsvector, ADD COLUMN lex_len integer;

-- The title lives on the version, so a generated column cannot read it: a trigger fills
-- both columns on every insert, whichever path writes the chunk (Import, COPY).
-- +goose StatementBegin
CREATE FUNCTION chunks_lex() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.lex := chunk_lex((SELECT title FROM versions WHERE id = NEW.version_id), NEW.heading, NEW.text);
    NEW.lex_len := (SELECT coalesce(sum(cardinality(positions)), 0) FROM unnest(NEW.lex));
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER chunks_lex BEFORE INSERT ON chunks FOR EACH ROW EXECUTE FUNCTION chunks_lex();

UPDATE chunks c SET lex = chunk_lex(v.title, c.heading, c.text) FROM versions v WHERE v.id = c.version_id;
UPDATE chunks SET lex_len = (SELECT coalesce(sum(cardinality(positions)), 0) FROM unnest(lex));
ALTER TABLE chunks ALTER COLUMN lex SET NOT NULL, ALTER COLUMN lex_len SET NOT NULL;

-- The lexical arm selects chunks by their rarer query lexemes through this index.
CREATE INDEX chunks_lexemes ON chunks USING gin (tsvector_to_array(lex));

CREATE TABLE lexemes (
    lexeme text PRIMARY KEY,
    chunks bigint NOT NULL
);
CREATE TABLE lexicon (
    one    boolean PRIMARY KEY DEFAULT true CHECK (one),
    chunks bigint NOT NULL,
    tokens bigint NOT NULL
);
INSERT INTO lexemes SELECT u.lexeme, count(*) FROM chunks c, unnest(c.lex) u GROUP BY u.lexeme;
INSERT INTO lexicon SELECT true, count(*), coalesce(sum(lex_len), 0) FROM chunks;

-- The 'simple' vector of heading and text that ranking used before, read by nothing now.
ALTER TABLE chunks DROP COLUMN tsv;

-- +goose Down
ALTER TABLE chunks ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', heading || ' ' || text)) STORED;
DROP TABLE lexicon;
DROP TABLE lexemes;
DROP TRIGGER chunks_lex ON chunks;
DROP FUNCTION chunks_lex();
ALTER TABLE chunks DROP COLUMN lex, DROP COLUMN lex_len;
DROP FUNCTION chunk_lex(text, text, text);
