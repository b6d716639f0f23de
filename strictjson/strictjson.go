// Package strictjson decodes JSON input the way every supportdraft entry point must: one
// value, no unknown fields, no duplicate keys, nothing after it. encoding/json alone keeps
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
}

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
// the value; the error is an *Error naming the line and, where it can, the field.
func Decode(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return &Error{Line: 1, Column: 1, Reason: "empty input: expected a JSON object"}
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

// DecodeReader is Decode over at most limit bytes of r; a longer input is refused rather
// than cut.
func DecodeReader(r io.Reader, limit int64, v any) error {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return fmt.Errorf("read JSON input: %w", err)
	}
	if int64(len(data)) > limit {
		return &Error{Line: 1, Column: 1, Reason: fmt.Sprintf("input is larger than %d bytes", limit)}
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
	return walk(dec, data, "")
}

func walk(dec *json.Decoder, data []byte, path string) error {
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
			field := join(path, key)
			if seen[key] {
				return at(data, dec.InputOffset(), field, "duplicate key")
			}
			seen[key] = true
			if err := walk(dec, data, field); err != nil {
				return err
			}
		}
		_, err = dec.Token() // '}'
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := walk(dec, data, fmt.Sprintf("%s[%d]", path, i)); err != nil {
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

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
