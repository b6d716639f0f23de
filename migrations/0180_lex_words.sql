-- +goose Up
-- The lexical arm looks a query up by its words (store.QueryWords: runs of letters and
-- digits), but Postgres's parser reads two words joined by punctuation as one token that
-- neither word matches: "Credit/Debit" and "monthly/annual" as a file path, "proof.Click"
-- (a full stop that lost its space) as a host name. chunk_lex now reads each field through
-- lex_words, which parts two words joined by one slash and puts the space back after such
-- a full stop; a slash inside a path or URL ("google.com/mail/bin") and a dot between
-- lower-case words (a host, "app.getName") stay as they are, since parting them indexed
-- words of addresses and code and ranked worse on a corpus of answers full of both.
-- relex() recomputes every chunk's lexemes and what is derived from them: chunk_terms
-- (0121), the term statistics lexemes and lexicon (0070, 0170) and version_lengths (0171).
-- The re-embedding trigger does not fire (no vector changes); each chunk is rewritten once,
-- which costs an insert into the vector index per chunk.
-- +goose StatementBegin
CREATE FUNCTION lex_words(s text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT regexp_replace(regexp_replace(s,
        '(^|[^[:alnum:]/.:_-])([[:alpha:]]+)/([[:alpha:]]+)(?!/|[[:alnum:]]|\.[[:alnum:]])', '\1\2 \3', 'g'),
        '([[:lower:]])\.(?=[[:upper:]][[:lower:]])', '\1. ', 'g')
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION chunk_lex(title text, heading text, body text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT setweight(to_tsvector('english', lex_words(title)), 'A') || setweight(to_tsvector('english', lex_words(heading)), 'B')
        || setweight(to_tsvector('english', lex_words(body)), 'D')
        || setweight(to_tsvector('simple', lex_words(title)), 'A') || setweight(to_tsvector('simple', lex_words(heading)), 'B')
        || setweight(to_tsvector('simple', lex_words(body)), 'D')
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE PROCEDURE relex() LANGUAGE plpgsql AS $$
BEGIN
    ALTER TABLE chunks DISABLE TRIGGER chunks_rescoped;
    UPDATE chunks c SET lex = x.lex, lex_len = (SELECT coalesce(sum(cardinality(positions)), 0) FROM unnest(x.lex))
    FROM (SELECT c.id, chunk_lex(v.title, c.heading, c.text) AS lex FROM chunks c JOIN versions v ON v.id = c.version_id) x
    WHERE x.id = c.id;
    ALTER TABLE chunks ENABLE TRIGGER chunks_rescoped;
    UPDATE chunk_terms t SET terms = tsvector_to_array(c.lex) FROM chunks c WHERE c.id = t.chunk_id;
    UPDATE version_lengths n SET tokens = s.tokens
    FROM (SELECT version_id, sum(lex_len) AS tokens FROM chunks GROUP BY 1) s WHERE s.version_id = n.version_id;
    DELETE FROM lexemes;
    INSERT INTO lexemes (agent_id, lexeme, chunks) SELECT c.agent_id, u.lexeme, count(*) FROM chunks c, unnest(c.lex) u GROUP BY 1, 2;
    UPDATE lexicon l SET tokens = s.tokens
    FROM (SELECT agent_id, sum(lex_len) AS tokens FROM chunks GROUP BY 1) s WHERE s.agent_id = l.agent_id;
END $$;
-- +goose StatementEnd
CALL relex();

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION chunk_lex(title text, heading text, body text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', heading), 'B')
        || setweight(to_tsvector('english', body), 'D')
        || setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', heading), 'B')
        || setweight(to_tsvector('simple', body), 'D')
$$;
-- +goose StatementEnd
CALL relex();
DROP PROCEDURE relex();
DROP FUNCTION lex_words(text);
