package dataset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// WriteJSONL writes the tickets, one JSON object per line, in the ticket format.
func WriteJSONL(w io.Writer, items []Item) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := range items {
		if err := enc.Encode(&items[i].Ticket); err != nil {
			return err
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// Phrasings counts the distinct hand-written pieces tickets are built from: core
// phrasings per intent and language, subjects, and the surrounding noise.
func Phrasings() map[string]int {
	out := map[string]int{}
	for _, it := range allIntents() {
		out["core (en)"] += len(it.EN)
		out["core (de)"] += len(it.DE)
		out["subjects"] += len(it.Subjects) + len(it.DeSubjects)
	}
	for lang, p := range noise {
		out["openers+closers+signatures ("+lang+")"] += len(p.openers) + len(p.closers) + len(p.signatures)
		out["stories+tangents+details ("+lang+")"] += len(p.stories) + len(p.tangents) + len(p.details)
		for _, s := range p.areaStories {
			out["stories+tangents+details ("+lang+")"] += len(s)
		}
		out["agent replies+follow-ups ("+lang+")"] += len(p.agentReplies) + len(p.neutralAgentReplies) + len(p.staleAgentReplies) + len(p.followUps) + len(p.bumps)
		out["remarks+fakes+injections ("+lang+")"] += len(p.remarks) + len(p.fakeTemplates) + len(p.injections)
		out["subjects"] += len(p.subjects)
	}
	return out
}

// Summary renders counts of the set by plan, region, area, answerability, locale and the
// other dimensions the set is meant to cover.
func Summary(items []Item) string {
	count := func(key func(Item) string) map[string]int {
		m := map[string]int{}
		for _, it := range items {
			m[key(it)]++
		}
		return m
	}
	var b strings.Builder
	n := len(items)
	row := func(title string, m map[string]int) {
		fmt.Fprintf(&b, "%-12s", title)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			fmt.Fprintf(&b, " %s=%d", k, m[k])
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "tickets      %d\n", n)
	row("plan", count(func(it Item) string { return it.Ticket.Account.Plan }))
	row("region", count(func(it Item) string { return it.Ticket.Account.Region }))
	row("locale", count(func(it Item) string { return it.Ticket.Account.Locale }))
	row("answerable", count(func(it Item) string { return fmt.Sprint(it.Ticket.Expect.Answerable) }))
	row("kind", count(func(it Item) string { return string(it.Meta.Kind) }))
	row("area", count(func(it Item) string { return it.Ticket.Expect.Area }))
	row("messages", count(func(it Item) string { return fmt.Sprint(len(it.Ticket.Messages)) }))
	row("channel", count(func(it Item) string { return it.Ticket.Channel }))
	row("style", count(func(it Item) string { return it.Meta.Style }))
	row("typos", count(func(it Item) string { return fmt.Sprint(it.Meta.Typos) }))
	row("overlay", count(func(it Item) string { return cmpOr(it.Meta.Overlay, "none") }))
	row("remark", count(func(it Item) string { return fmt.Sprint(it.Meta.Remark) }))
	row("targeted", count(func(it Item) string { return fmt.Sprint(it.Meta.Targeted) }))
	row("year", count(func(it Item) string { return it.Ticket.UpdatedAt.Format("2006") }))
	row("quarter", count(func(it Item) string {
		t := it.Ticket.UpdatedAt
		return fmt.Sprintf("%dQ%d", t.Year(), (int(t.Month())-1)/3+1)
	}))
	used := map[string]bool{}
	for _, it := range items {
		for _, p := range it.Meta.Phrasings {
			used[p] = true
		}
	}
	ph := Phrasings()
	fmt.Fprintf(&b, "phrasings    %d core phrasings used of %d written;", len(used), ph["core (en)"]+ph["core (de)"])
	for _, k := range slices.Sorted(maps.Keys(ph)) {
		fmt.Fprintf(&b, " %s=%d", k, ph[k])
	}
	b.WriteByte('\n')
	return b.String()
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
