package strictjson

import (
	"errors"
	"fmt"
	"io"
)

// MaxDepth is how deeply objects and arrays may nest. Every input format here (tickets,
// inbound messages, request bodies) nests three levels at most; the limit is checked
// byte by byte as the input arrives, before any parser sees it, so a body of a million
// brackets costs MaxDepth bytes of reading, not a parser's recursion over all of them.
const MaxDepth = 16

// shape follows JSON's nesting byte by byte (outside strings only) without parsing
// anything else, so it can refuse an input as soon as it nests too deeply.
type shape struct {
	depth    int
	inString bool
	escaped  bool
}

// errTooDeep is what feed reports; at is the byte offset where the limit was crossed.
type tooDeep struct{ at int64 }

func (e *tooDeep) Error() string { return fmt.Sprintf("nested more than %d levels deep", MaxDepth) }

// feed reads p (which starts at byte offset off of the input) and reports the first
// bracket that nests deeper than MaxDepth.
func (s *shape) feed(p []byte, off int64) error {
	for i, b := range p {
		switch {
		case s.inString && s.escaped:
			s.escaped = false
		case s.inString && b == '\\':
			s.escaped = true
		case s.inString:
			s.inString = b != '"'
		case b == '"':
			s.inString = true
		case b == '{' || b == '[':
			if s.depth++; s.depth > MaxDepth {
				return &tooDeep{at: off + int64(i)}
			}
		case b == '}' || b == ']':
			s.depth--
		}
	}
	return nil
}

// checkDepth refuses data that nests deeper than MaxDepth.
func checkDepth(data []byte) error {
	var s shape
	var deep *tooDeep
	if err := s.feed(data, 0); errors.As(err, &deep) {
		return at(data, deep.at, "", deep.Error())
	}
	return nil
}

// readBounded reads r to its end, refusing it as soon as it passes limit bytes or
// MaxDepth levels of nesting: memory and time stay bounded by the limits, whatever the
// sender sends.
func readBounded(r io.Reader, limit int64) ([]byte, error) {
	var s shape
	buf := make([]byte, 0, min(limit+1, 32<<10))
	chunk := make([]byte, 32<<10)
	for {
		n, err := r.Read(chunk)
		if int64(len(buf)+n) > limit {
			return nil, &Error{Line: 1, Column: 1, Reason: fmt.Sprintf("input is larger than %d bytes", limit), cause: ErrTooLarge}
		}
		var deep *tooDeep
		if ferr := s.feed(chunk[:n], int64(len(buf))); errors.As(ferr, &deep) {
			buf = append(buf, chunk[:n]...)
			return nil, at(buf[:deep.at+1], deep.at, "", deep.Error())
		}
		buf = append(buf, chunk[:n]...)
		switch {
		case errors.Is(err, io.EOF):
			return buf, nil
		case err != nil:
			return nil, fmt.Errorf("read JSON input: %w", err)
		}
	}
}
