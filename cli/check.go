package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
)

// guardCommands returns the commands around the guard and its evidence: check (the guard
// on its own), trace (where a drafted term came from) and gaps (what the corpus could not
// answer). They are wired into the root command.
func guardCommands() []*cobra.Command {
	return []*cobra.Command{newCheckCmd(), newTraceCmd(), newGapsCmd()}
}

// checkOutput is the JSON contract of `supportdraft check`. It is guard.Result with note
// always present, so scripts can read it without testing for the key.
type checkOutput struct {
	Sentences []guard.SentenceResult `json:"sentences"`
	Reply     string                 `json:"reply"`
	Struck    int                    `json:"struck"`
	Note      string                 `json:"note"`
}

func newCheckCmd() *cobra.Command {
	var sourcesPath, replyPath, vocabularyPath string
	cmd := &cobra.Command{
		Use:   "check --sources FILE.json --reply FILE.txt",
		Short: "Run the guard on a reply and sources, without a database or model",
		Long: `check runs the deterministic guard that sits between the drafter and the compose box,
on its own: no database, no model, no network. Use it to see what the guard will flag
and strike before a draft ever reaches an agent, or to test a vocabulary change.

The reply is split into sentences. A sentence is flagged when it contains commitment
language: a number or duration, a time in words ("immediately", "at the end of the
period"), a commercial verb (refund, credit, waive, cancel, extend, upgrade, downgrade,
guarantee, compensate, prorate, delete, suspend, free, discount, reimburse, reverse,
reactivate, reissue, "no fee", "we'll cover", "paid by us"; and verbs with what they act
on: "removed the late fee", "stopped all future charges", "paused your subscription"),
eligibility ("your plan includes", "included"), a promise in the future tense whoever
makes it ("will be fixed", "your card won't be charged"; not what the agent will do
about the ticket: "I'll look into it", and not a question) or a legal position
("statutory right", "liable", "GDPR"). A flagged sentence is kept only when one source
states every number of it (14 days = fourteen days = two weeks; 24 hours = a day; a year
= 12 months; "in full" = 100%; one month is not 30 days), bounded on the same side
("within" is not "at least"), per the same period ("per month" is not "per year") and
counted from the same event ("30 days of purchase" is not "30 days of delivery"),
and every commercial verb, says the same time in words, and names something the sentence
names (a sentence about "all plans" or "anyone": a source not limited to one plan,
period or role, and for "every plan" one that names no plans for it anywhere; one that
holds "at any time" or "as often as" you ask: a source that bounds neither; one that
places an event after: a source that does not place it before). A heading names a topic
and states nothing. Any other flagged sentence is struck, as is one that restates a
source with the opposite polarity ("used" beside "unused", "can" beside "cannot", "past"
beside "future", "reset" beside "Nothing is reset"), and one that promises what its
source only allows ("will be charged" beside "may be charged", "we'll offer a credit"
beside "at our discretion, we may offer"). Any sentence that reports a billing action or
an act on the account as done is struck too ("I've refunded your last payment", "your
refund is on its way", "I've unlocked your workspace"): policy says what may be done,
never that it was. A calendar date after a past form ("your plan renewed on March 3rd")
is what the account shows, and is not checked. Numbers, durations and the core billing
words are read in English, German, Dutch, French, Spanish and Italian. The composed reply
ends with a visible "not covered by current policy" note.
Sentences with unresolved placeholders ({{name}}, [NAME], %s, …) are always struck.

--sources is a JSON array of {"id": "...", "text": "..."}: the eligible policy text the
reply may rely on (any source may back any sentence here; in a real draft only the
chunks its claims cite may); an optional "title" names its document, whose words count for
every sentence of it, as a section's heading does. --reply is the reply as plain text ("-"
reads stdin).
--vocabulary adds entries to the built-in commitment vocabulary (same format as
guard/vocabulary.txt: kind<TAB>phrase[<TAB>canonical]; a commercial phrase written
VERB … OBJECT|OBJECT counts where one of the objects stands within five words of the verb).

Output is JSON: {"sentences": [{"text", "flagged", "kinds", "kept", "reason",
"source_id"}, …], "reply": the composed reply, "struck": n, "note": the gap note}.
Malformed input exits with code 2 and names the file and field to fix.`,
		Example: `  supportdraft check --sources guard/testdata/bench_sources.json --reply guard/testdata/bench_draft.txt
  echo "Annual plans have a 30-day refund window." | supportdraft check --sources sources.json --reply -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if sourcesPath == "" || replyPath == "" {
				return usagef("check needs --sources FILE.json and --reply FILE.txt (see --help)")
			}
			vocab, err := vocabulary(vocabularyPath)
			if err != nil {
				return err
			}
			sources, err := readSources(sourcesPath)
			if err != nil {
				return err
			}
			reply, err := readReply(replyPath, cmd.InOrStdin())
			if err != nil {
				return err
			}
			res := vocab.Check(guard.Input{Reply: reply, Sources: sources, Mode: guard.ModeAnySource})
			return writeJSON(cmd.OutOrStdout(), checkOutput{Sentences: res.Sentences, Reply: res.Reply, Struck: res.Struck, Note: res.Note})
		},
	}
	cmd.Flags().StringVar(&sourcesPath, "sources", "", `JSON file: [{"id": "...", "text": "..."}]`)
	cmd.Flags().StringVar(&replyPath, "reply", "", `the reply to check, as plain text ("-" for stdin)`)
	cmd.Flags().StringVar(&vocabularyPath, "vocabulary", "", "extra commitment vocabulary file (extends the built-in one)")
	return cmd
}

// vocabulary returns the built-in vocabulary, extended by the file at path when given.
func vocabulary(path string) (*guard.Vocabulary, error) {
	if path == "" {
		return guard.DefaultVocabulary()
	}
	v, err := guard.LoadVocabulary(path)
	if err != nil {
		return nil, usageError{fmt.Errorf("--vocabulary %s: %w", path, err)}
	}
	return v, nil
}

// readSources reads and validates the --sources file. Every problem is a usage error that
// names the file, the entry and the field, because a source silently skipped would make
// the guard strike sentences for a reason nobody can see.
func readSources(path string) ([]policy.Evidence, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("--sources: %v", err)
	}
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, usagef("--sources %s: %s; the file must be a JSON array of {\"id\": \"...\", \"text\": \"...\"}", path, jsonProblem(data, err))
	}
	if raw == nil {
		return nil, usagef("--sources %s: the file holds null, not an array of sources", path)
	}
	sources := make([]policy.Evidence, 0, len(raw))
	seen := map[string]int{}
	for i, entry := range raw {
		var s policy.Evidence
		for _, field := range []struct {
			name string
			dst  *string
		}{{"id", &s.ChunkID}, {"text", &s.Text}} {
			value, ok := entry[field.name]
			if !ok {
				return nil, usagef("--sources %s: the source at index %d has no field %q; every source needs {\"id\": \"...\", \"text\": \"...\"}", path, i, field.name)
			}
			if err := json.Unmarshal(value, field.dst); err != nil {
				return nil, usagef("--sources %s: the source at index %d: field %q must be a string, got %s", path, i, field.name, value)
			}
			if strings.TrimSpace(*field.dst) == "" {
				return nil, usagef("--sources %s: the source at index %d: field %q is empty", path, i, field.name)
			}
		}
		if value, ok := entry["title"]; ok {
			if err := json.Unmarshal(value, &s.Title); err != nil {
				return nil, usagef("--sources %s: the source at index %d: field \"title\" must be a string, got %s", path, i, value)
			}
		}
		if first, ok := seen[s.ChunkID]; ok {
			return nil, usagef("--sources %s: the sources at index %d and %d have the same id %q; give each source its own id (a chunk ID such as billing/refunds-annual@4#window)", path, first, i, s.ChunkID)
		}
		seen[s.ChunkID] = i
		sources = append(sources, s)
	}
	return sources, nil
}

// readReply reads the --reply file, or stdin for "-". An empty reply is a usage error:
// checking nothing would print an empty verdict that looks like a pass.
func readReply(path string, stdin io.Reader) (string, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return "", usagef("--reply: %v", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return "", usagef("--reply %s: the reply is empty; pass the draft reply as plain text", path)
	}
	return string(data), nil
}

// jsonProblem describes a JSON decoding error with the line and column it happened at,
// which encoding/json reports only as a byte offset.
func jsonProblem(data []byte, err error) string {
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	offset := int64(-1)
	switch {
	case errors.As(err, &syntax):
		offset = syntax.Offset
	case errors.As(err, &typeErr):
		offset = typeErr.Offset
		err = fmt.Errorf("found a JSON %s where %s was expected", typeErr.Value, describeJSONType(typeErr))
	}
	if offset < 0 || offset > int64(len(data)) {
		return err.Error()
	}
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(offset) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}

func describeJSONType(e *json.UnmarshalTypeError) string {
	switch e.Type.Kind().String() {
	case "slice":
		return "an array"
	case "map":
		return "an object"
	}
	return "a " + e.Type.String()
}
