// Package strictjson decodes JSON input the way every supportdraft entry point must: one
// value, no unknown fields, no duplicate keys, nothing after it, nested at most MaxDepth
// levels and, from a reader, at most a given size. encoding/json alone keeps
// the last of two duplicate keys and ignores unknown fields and trailing data, so a
// client's typo or a smuggled second value would pass silently.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Error is a refused input: where it is (line and column, 1-based) and why. Field names
// the JSON path of the offending key when one is known ("account.plan", "messages[2]").
// OneLine is set for single-line input (a JSONL line, whose caller names the file's line):
// the message then gives the column only.
type Error struct {
	Line, Column int
	OneLine      bool
	Field        string
	Reason       string
	cause        error
}

// ErrTooLarge is what an *Error for input past DecodeReader's limit wraps, so a caller can
// answer it differently (HTTP 413) from a malformed input.
var ErrTooLarge = errors.New("input is too large")

// Unwrap returns ErrTooLarge for an input past the limit, nil otherwise.
func (e *Error) Unwrap() error { return e.cause }

func (e *Error) Error() string {
	at := fmt.Sprintf("line %d, column %d", e.Line, e.Column)
	if e.OneLine {
		at = fmt.Sprintf("column %d", e.Column)
	}
	if e.Field != "" {
		return fmt.Sprintf("%s: field %q: %s", at, e.Field, e.Reason)
	}
	return at + ": " + e.Reason
}

// Decode reads exactly one JSON value from data into v. It refuses duplicate keys at any
// depth, fields v does not declare, values of the wrong type, and any non-space data after
// the value, or nesting deeper than MaxDepth; the error is an *Error naming the line and,
// where it can, the field.
func Decode(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return &Error{Line: 1, Column: 1, Reason: "empty input: expected a JSON object"}
	}
	if err := checkDepth(data); err != nil {
		return err
	}
	if err := checkDuplicates(data); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return describe(data, dec.InputOffset(), err)
	}
	if off := dec.InputOffset(); len(bytes.TrimSpace(data[off:])) > 0 {
		rest := off + int64(len(data[off:])-len(bytes.TrimLeft(data[off:], " \t\r\n")))
		return at(data, rest, "", "unexpected data after the JSON value")
	}
	return nil
}

// DecodeReader is Decode over at most limit bytes of r. A longer or too deeply nested
// input is refused while it is read, rather than cut or parsed.
func DecodeReader(r io.Reader, limit int64, v any) error {
	data, err := readBounded(r, limit)
	if err != nil {
		return err
	}
	return Decode(data, v)
}

// describe turns encoding/json's errors into an *Error with a position and field.
func describe(data []byte, offset int64, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return at(data, syntax.Offset, "", "malformed JSON: "+syntax.Error())
	case errors.As(err, &typ):
		return at(data, typ.Offset, typ.Field, fmt.Sprintf("expected %s, got JSON %s", typ.Type, typ.Value))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return at(data, int64(len(data)), "", "the JSON value ends early")
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return at(data, offset, strings.Trim(name, `"`), "unknown field")
	}
	return at(data, offset, "", err.Error())
}

// at builds an *Error for a byte offset into data.
func at(data []byte, offset int64, field, reason string) *Error {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	oneLine := !bytes.Contains(bytes.TrimRight(data, " \t\r\n"), []byte("\n"))
	return &Error{Line: line, Column: col, OneLine: oneLine, Field: field, Reason: reason}
}

// checkDuplicates walks the token stream and refuses an object that names a key twice.
func checkDuplicates(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return walk(dec, data, nil)
}

// walk reads one value. path holds the keys and indexes above it, joined into a field
// name only when an error needs one.
func walk(dec *json.Decoder, data []byte, path []string) error {
	tok, err := dec.Token()
	if err != nil {
		return describe(data, dec.InputOffset(), err)
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			keyTok, err := dec.Token()
			if err != nil {
				return describe(data, dec.InputOffset(), err)
			}
			key, _ := keyTok.(string)
			if seen[key] {
				return at(data, dec.InputOffset(), fieldName(append(path, key)), "duplicate key")
			}
			seen[key] = true
			if err := walk(dec, data, append(path, key)); err != nil {
				return err
			}
		}
		_, err = dec.Token() // '}'
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := walk(dec, data, append(path, fmt.Sprintf("[%d]", i))); err != nil {
				return err
			}
		}
		_, err = dec.Token() // ']'
	}
	if err != nil {
		return describe(data, dec.InputOffset(), err)
	}
	return nil
}

// fieldName joins a path into the form errors use: "account.plan", "messages[2].body".
func fieldName(path []string) string {
	name := ""
	for _, p := range path {
		name = join(name, p)
	}
	return name
}

func join(path, key string) string {
	if path == "" || strings.HasPrefix(key, "[") {
		return path + key
	}
	return path + "." + key
}
