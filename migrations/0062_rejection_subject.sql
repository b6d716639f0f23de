-- +goose Up
-- What a logged miss asked about, as its own column: the words of the customer's question
-- that no eligible policy answers ("alipay", "fx, fee"), for an abstention and for each
-- open question of a partial answer. gaps ranks them within an area. Like the sentence,
-- it is the customer's words, so retention blanks it.
ALTER TABLE rejections ADD COLUMN subject text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE rejections DROP COLUMN subject;
