package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/store"
)

// run executes one command as the binary would and returns its stdout, its error and the
// exit code Execute would turn that error into.
func run(t *testing.T, cmd *cobra.Command, args ...string) (string, error, int) {
	t.Helper()
	var out, stderr bytes.Buffer
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&stderr)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.ExecuteContext(context.Background())
	code := 0
	if err != nil {
		code = 1
		var ue usageError
		if errors.As(err, &ue) {
			code = 2
		}
	}
	return out.String(), err, code
}

// mustRun runs one command as run does and fails the test unless it succeeds, naming the
// command, its exit code and what it printed.
func mustRun(t *testing.T, cmd *cobra.Command, args ...string) string {
	t.Helper()
	out, err, code := run(t, cmd, args...)
	if err != nil {
		t.Fatalf("%s %s: exit %d: %v\n%s", cmd.Name(), strings.Join(args, " "), code, err, out)
	}
	return out
}

// assertPrints fails the test for each of wants that a command's output out lacks.
func assertPrints(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// readOutput reads the file a command wrote at path and parses it, failing the test if
// either fails.
func readOutput[T any](t *testing.T, path string, parse func([]byte) (T, error)) T {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := parse(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// decodeJSON is readOutput's parse for a JSON file.
func decodeJSON[T any](data []byte) (T, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}

// scratchDB points DATABASE_URL and SUPPORTDRAFT_MIGRATE_URL at a scratch schema of its
// own for the commands the test runs, and returns the store over it. A test that calls it
// cannot be parallel.
func scratchDB(t *testing.T) *store.Store {
	t.Helper()
	s, url := testdb.New(t)
	t.Setenv("DATABASE_URL", url)
	t.Setenv("SUPPORTDRAFT_MIGRATE_URL", url)
	return s
}

func checkdata(name string) string { return filepath.Join("testdata", "check", name) }

func TestCheckCommand(t *testing.T) {
	t.Parallel()
	out := mustRun(t, newCheckCmd(), "--sources", checkdata("sources.json"), "--reply", checkdata("reply.txt"))
	var got checkOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not the JSON contract: %v\n%s", err, out)
	}
	type verdict struct {
		kept   bool
		source string
		reason string // a part of it
	}
	want := map[string]verdict{
		"Hi {{first_name}},":           {false, "", "unresolved placeholder {{first_name}}"},
		"Thanks for getting in touch.": {true, "", "no commitment language"},
		"Annual plans can be refunded within fourteen days of purchase.":                         {true, "billing/refunds-annual@4#refund-window", "backed by"},
		"Annual plans also have a 30-day refund window for unused seats.":                        {false, "", "30 day"},
		"If you cancel, the cancellation takes effect at the end of the current billing period.": {true, "billing/cancellation@1#when-a-cancellation-takes-effect", "backed by"},
	}
	for _, s := range got.Sentences {
		w, ok := want[s.Text]
		if !ok {
			continue
		}
		delete(want, s.Text)
		if s.Kept != w.kept || s.SourceID != w.source || !strings.Contains(s.Reason, w.reason) {
			t.Errorf("%q: kept=%v source=%q reason=%q, want kept=%v source=%q reason containing %q",
				s.Text, s.Kept, s.SourceID, s.Reason, w.kept, w.source, w.reason)
		}
		if s.Kinds == nil {
			t.Errorf("%q: kinds is null, want a list", s.Text)
		}
	}
	for text := range want {
		t.Errorf("no sentence %q in the output", text)
	}
	if got.Struck != 2 || got.Note == "" || strings.Contains(got.Reply, got.Note) {
		t.Errorf("struck %d, note %q, reply %q: want 2 struck and the note beside the reply, not in it", got.Struck, got.Note, got.Reply)
	}
	if strings.Contains(got.Reply, "30-day") || !strings.Contains(got.Reply, "fourteen days") {
		t.Errorf("composed reply keeps the wrong sentences: %q", got.Reply)
	}
	assertPrints(t, out, `"sentences"`, `"reply"`, `"struck"`, `"note"`, `"text"`, `"flagged"`, `"kinds"`, `"kept"`, `"reason"`, `"source_id"`)
}

func TestCheckCommandReadsStdin(t *testing.T) {
	t.Parallel()
	cmd := newCheckCmd()
	cmd.SetIn(strings.NewReader("You can cancel with 30 days notice."))
	out := mustRun(t, cmd, "--sources", checkdata("sources.json"), "--reply", "-")
	if !strings.Contains(out, `"struck": 1`) {
		t.Errorf("want the unbacked sentence struck:\n%s", out)
	}
}

// A source's optional title counts for every sentence of its text: the reply's "storage"
// is backed by a section titled "Storage quotas", not by the same text untitled.
func TestCheckCommandReadsTitles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reply := filepath.Join(dir, "reply.txt")
	if err := os.WriteFile(reply, []byte("Every Team workspace includes 2 TB of storage."), 0o600); err != nil {
		t.Fatal(err)
	}
	for title, struck := range map[string]string{`"title": "Storage quotas and overage", `: `"struck": 0`, "": `"struck": 1`} {
		sources := filepath.Join(dir, "sources.json")
		body := `[{"id": "quotas", ` + title + `"text": "Quotas\nSolo includes 500 GB. Team includes 2 TB per workspace."}]`
		if err := os.WriteFile(sources, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if out := mustRun(t, newCheckCmd(), "--sources", sources, "--reply", reply); !strings.Contains(out, struck) {
			t.Errorf("title %q: want %s:\n%s", title, struck, out)
		}
	}
}

func TestCheckCommandRefusesMalformedInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want []string // parts of the error message
	}{
		{"no flags", nil, []string{"--sources", "--reply"}},
		{"missing sources file", []string{"--sources", checkdata("nope.json"), "--reply", checkdata("reply.txt")}, []string{"nope.json"}},
		{"missing reply file", []string{"--sources", checkdata("sources.json"), "--reply", checkdata("nope.txt")}, []string{"nope.txt"}},
		{"bad JSON", []string{"--sources", checkdata("bad-syntax.json"), "--reply", checkdata("reply.txt")}, []string{"bad-syntax.json", "line 2"}},
		{"not an array", []string{"--sources", checkdata("not-array.json"), "--reply", checkdata("reply.txt")}, []string{"not-array.json", "object where an array"}},
		{"source without text", []string{"--sources", checkdata("missing-text.json"), "--reply", checkdata("reply.txt")}, []string{"missing-text.json", "index 1", `"text"`}},
		{"source with empty id", []string{"--sources", checkdata("empty-id.json"), "--reply", checkdata("reply.txt")}, []string{"empty-id.json", "index 1", `"id" is empty`}},
		{"id not a string", []string{"--sources", checkdata("number-id.json"), "--reply", checkdata("reply.txt")}, []string{"number-id.json", `"id" must be a string`}},
		{"title not a string", []string{"--sources", checkdata("number-title.json"), "--reply", checkdata("reply.txt")}, []string{"number-title.json", `"title" must be a string`}},
		{"duplicate id", []string{"--sources", checkdata("duplicate-id.json"), "--reply", checkdata("reply.txt")}, []string{"duplicate-id.json", `same id "a"`}},
		{"empty reply", []string{"--sources", checkdata("sources.json"), "--reply", checkdata("empty-reply.txt")}, []string{"empty-reply.txt", "empty"}},
		{"missing vocabulary", []string{"--sources", checkdata("sources.json"), "--reply", checkdata("reply.txt"), "--vocabulary", checkdata("nope.txt")}, []string{"--vocabulary", "nope.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err, code := run(t, newCheckCmd(), tt.args...)
			if code != 2 {
				t.Fatalf("exit code %d (err %v), want 2", code, err)
			}
			for _, part := range tt.want {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("error %q does not mention %q", err, part)
				}
			}
			if out != "" {
				t.Errorf("printed output on bad input: %s", out)
			}
		})
	}
}

func TestGuardCommandsAreComplete(t *testing.T) {
	t.Parallel()
	var names []string
	for _, c := range guardCommands() {
		names = append(names, c.Name())
		if c.Long == "" || c.Example == "" {
			t.Errorf("%s: Long and Example must teach the command", c.Name())
		}
	}
	if strings.Join(names, ",") != "check,trace,gaps" {
		t.Errorf("guardCommands = %v", names)
	}
}
