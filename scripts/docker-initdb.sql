-- Run once by the pgvector image on first start (docker-compose.yml): the extensions the
-- migrations need, and the test database.
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS btree_gist;
CREATE DATABASE supportdraft_test OWNER supportdraft;
\c supportdraft_test
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS btree_gist;
