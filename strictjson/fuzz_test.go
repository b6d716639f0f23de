package strictjson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/supportdraft/supportdraft/strictjson"
)

// FuzzDecode checks the strict reader against encoding/json on arbitrary input: it never
// panics; a refusal is always an *Error; what it accepts, encoding/json reads to the same
// value, and reading it from a reader gives the same answer as from bytes. `go test` runs
// the seed corpus; `go test -fuzz FuzzDecode -fuzztime 30s ./strictjson/` explores further.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		`{"id":"a","revision":3,"account":{"plan":"pro"},"tags":["x"]}`,
		`{"id":"a","id":"b"}`, `{"id":"a"} x`, `[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]`,
		`{"id":"\"[[[["}`, `{"tags":[null,1,"\u0000"]}`, `{"account":{"plan":"a","plan":"b"}}`,
		"\xef\xbb\xbf{}", `{"id":"a"`, ``, `{"Id":"x"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got doc
		err := strictjson.Decode(data, &got)
		var fromReader doc
		rerr := strictjson.DecodeReader(bytes.NewReader(data), int64(len(data))+1, &fromReader)
		if (err == nil) != (rerr == nil) {
			t.Fatalf("Decode says %v, DecodeReader says %v", err, rerr)
		}
		if err != nil {
			var se *strictjson.Error
			if !errors.As(err, &se) {
				t.Fatalf("refusal is not a *strictjson.Error: %v", err)
			}
			return
		}
		var want doc
		if jerr := json.Unmarshal(data, &want); jerr != nil {
			t.Fatalf("accepted what encoding/json refuses (%v): %q", jerr, data)
		}
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(got, fromReader) {
			t.Fatalf("decoded %+v, encoding/json %+v, from a reader %+v", got, want, fromReader)
		}
	})
}
