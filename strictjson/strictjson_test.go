package strictjson_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/strictjson"
)

type account struct {
	Plan string `json:"plan"`
}

type doc struct {
	ID       string   `json:"id"`
	Revision int32    `json:"revision"`
	Account  account  `json:"account"`
	Tags     []string `json:"tags"`
}

func TestDecodeRefuses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in     string
		line         int
		field, cause string
	}{
		{"unknown field", `{"id":"a","colour":"red"}`, 1, "colour", "unknown field"},
		{"nested unknown field", "{\"id\":\"a\",\n\"account\":{\"plan\":\"pro\",\"tier\":1}}", 2, "", "unknown field"},
		{"duplicate key", `{"id":"a","id":"b"}`, 1, "id", "duplicate key"},
		{"nested duplicate key", "{\"account\":\n{\"plan\":\"a\",\n\"plan\":\"b\"}}", 3, "account.plan", "duplicate key"},
		{"trailing garbage", "{\"id\":\"a\"}\n garbage", 2, "", "after the JSON value"},
		{"second value", `{"id":"a"}{"id":"b"}`, 1, "", "after the JSON value"},
		{"int32 overflow", `{"revision":2147483648}`, 1, "revision", "expected int32"},
		{"wrong type", `{"id":7}`, 1, "id", "expected string"},
		{"malformed", "{\"id\":\n\"a\",,}", 2, "", "malformed JSON"},
		{"truncated", `{"id":"a"`, 1, "", "ends early"},
		{"empty", "  ", 1, "", "empty input"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var d doc
			err := strictjson.Decode([]byte(c.in), &d)
			var se *strictjson.Error
			require.True(t, errors.As(err, &se), "want *strictjson.Error, got %v", err)
			assert.Equal(t, c.line, se.Line, "line of %v", err)
			if c.field != "" {
				assert.Equal(t, c.field, se.Field)
			}
			assert.Contains(t, se.Error(), c.cause)
		})
	}
}

func TestDecodeAccepts(t *testing.T) {
	t.Parallel()
	var d doc
	require.NoError(t, strictjson.Decode([]byte(" {\"id\":\"a\",\"revision\":2147483647,\"account\":{\"plan\":\"pro\"},\"tags\":[\"x\",\"y\"]}\n"), &d))
	assert.Equal(t, doc{ID: "a", Revision: 2147483647, Account: account{Plan: "pro"}, Tags: []string{"x", "y"}}, d)
	// The same key in two different objects is not a duplicate.
	var m []map[string]int
	require.NoError(t, strictjson.Decode([]byte(`[{"a":1},{"a":2}]`), &m))
}

func TestDecodeReaderLimit(t *testing.T) {
	t.Parallel()
	var d doc
	err := strictjson.DecodeReader(strings.NewReader(`{"id":"`+strings.Repeat("x", 100)+`"}`), 50, &d)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "larger than 50 bytes")
}

// endless is a reader of "{"x":" followed by brackets without end: only a reader that
// stops at the depth limit returns at all.
type endless struct{ started bool }

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	if !e.started {
		n, e.started = copy(p, `{"x":`), true
	}
	for ; n < len(p); n++ {
		p[n] = '['
	}
	return n, nil
}

func TestDepthIsRefusedWhileReading(t *testing.T) {
	t.Parallel()
	var d doc
	err := strictjson.DecodeReader(&endless{}, 1<<40, &d)
	var se *strictjson.Error
	require.ErrorAs(t, err, &se)
	assert.Contains(t, se.Reason, "nested more than 16 levels")
	assert.Equal(t, len(`{"x":`)+strictjson.MaxDepth, se.Column, "refused at the first bracket past the limit")

	deep := `{"id":"a","tags":` + strings.Repeat("[", strictjson.MaxDepth) + strings.Repeat("]", strictjson.MaxDepth) + `}`
	require.ErrorAs(t, strictjson.Decode([]byte(deep), &d), &se, "Decode checks depth too")
	assert.Contains(t, se.Reason, "nested more than")

	var ok any
	atLimit := strings.Repeat("[", strictjson.MaxDepth) + strings.Repeat("]", strictjson.MaxDepth)
	assert.NoError(t, strictjson.Decode([]byte(atLimit), &ok))
	inString := `{"id":"` + strings.Repeat("[{", 100) + `\"[` + `"}`
	assert.NoError(t, strictjson.Decode([]byte(inString), &d), "brackets inside a string do not nest")
}

func TestTooLargeIsTold(t *testing.T) {
	t.Parallel()
	var d doc
	err := strictjson.DecodeReader(strings.NewReader(`{"id":"`+strings.Repeat("x", 100)+`"}`), 50, &d)
	assert.ErrorIs(t, err, strictjson.ErrTooLarge)
	assert.NotErrorIs(t, strictjson.Decode([]byte(`{"id":1}`), &d), strictjson.ErrTooLarge)
}
