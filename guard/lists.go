package guard

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/supportdraft/supportdraft/text"
)

// A source sentence that lists several plans, each with its own figures ("Starter at £12
// per month with 10 GB, Everyday at £20 per month with 50 GB"), states each figure of one
// plan only. Read whole, it would back any pairing of its names and figures ("Everyday
// costs £12 a month"), so each item is a unit of its own, with the words before the first
// item ("Lumen offers three monthly plans") that every item shares. The whole sentence
// stays a unit too, but one that backs only a sentence naming two of its items or more,
// as a copy of the list does.

// listBreak splits a sentence into the segments a list is made of: at a comma or
// semicolon, and at "and", "or", "und", "oder" before a capitalised word (splitList). A
// colon stays inside its item: "Pro: $10 a month; Business: $20 a month".
var listBreak = regexp.MustCompile(`[,;]\s+|\s+(?:and|or|und|oder)\s+`)

// listItem is one item of a list sentence: its statement (the words before the first item,
// then the item) and the names it is told apart by.
type listItem struct {
	statement string
	names     []string
}

// listItems returns the items of a list sentence; nil when the sentence is no list of two
// items or more, each led by a name and stating a figure.
func (v *Vocabulary) listItems(sentence string, names map[string]string) []listItem {
	segments := splitList(sentence)
	if len(segments) < 2 {
		return nil
	}
	var preamble []string
	var items []listItem
	for _, seg := range segments {
		named := v.namesIn(seg, names)
		quantities := text.Quantities(seg)
		trailed := len(quantities) > 0 && trailedByName(seg, names)
		isItem := len(quantities) > 0 && v.ledByName(seg, names) || trailed
		if trailed && len(items) == 0 && len(preamble) == 0 {
			// "The excess is £99 on Essential, £75 on Complete": what the first item
			// opens with, every item is.
			if i := strings.Index(seg, quantities[0].Text); i > 0 {
				preamble = append(preamble, strings.TrimSpace(seg[:i]))
				seg = seg[i:]
			}
		}
		switch {
		case isItem && len(items) > 0 && containsAll(items[len(items)-1].names, named):
			// "Family at $8.99 per serving, with Family boxes of 4 servings": one item.
			items[len(items)-1].statement += ", " + seg
		case isItem:
			items = append(items, listItem{statement: seg, names: named})
		case len(items) == 0:
			preamble = append(preamble, seg)
		default:
			items[len(items)-1].statement += ", " + seg
		}
	}
	if len(items) < 2 {
		return nil
	}
	prefix := strings.Join(preamble, ", ")
	for i := range items {
		items[i].statement = strings.TrimSpace(prefix + " " + items[i].statement)
	}
	return items
}

// listNames are the names of all items of a list.
func listNames(items []listItem) []string {
	var out []string
	for _, it := range items {
		for _, n := range it.names {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// splitList cuts sentence at listBreak: at punctuation always, at a conjunction only
// before a capital ("Classic at $10.99 and Family at $8.99", not "per month and year").
func splitList(sentence string) []string {
	var out []string
	from := 0
	for _, m := range listBreak.FindAllStringIndex(sentence, -1) {
		if sep := sentence[m[0]]; sep != ',' && sep != ';' {
			if r, _ := utf8.DecodeRuneInString(sentence[m[1]:]); !unicode.IsUpper(r) {
				continue
			}
		}
		if seg := strings.TrimSpace(sentence[from:m[0]]); seg != "" {
			out = append(out, seg)
		}
		from = m[1]
	}
	if seg := strings.TrimSpace(sentence[from:]); seg != "" {
		out = append(out, seg)
	}
	return out
}

// ledByName reports whether one of the first two words of a segment, after a leading
// conjunction or article, is a plan or proper name: an item of a list opens with what it
// is about ("and Unlimited Plus at £32", "with Family boxes of 4 servings").
func (v *Vocabulary) ledByName(seg string, names map[string]string) bool {
	toks := wordTokens(seg)
	for len(toks) > 0 && leadWords[toks[0].lower] {
		toks = toks[1:]
	}
	return slices.ContainsFunc(toks[:min(len(toks), 2)], func(t word) bool { return isName(t, names) })
}

// trailedByName reports whether a segment ends with a name after "on", "for", "with" or
// "in" ("£75 per condition on Complete"): an item that names what it is about last.
func trailedByName(seg string, names map[string]string) bool {
	toks := wordTokens(seg)
	n := len(toks)
	if n >= 2 && isName(toks[n-1], names) && trailWords[toks[n-2].lower] {
		return true
	}
	return n >= 3 && isName(toks[n-2], names) && isName(toks[n-1], names) && trailWords[toks[n-3].lower]
}

// trailWords stand before the name that ends a list item.
var trailWords = map[string]bool{"on": true, "for": true, "with": true, "in": true, "under": true, "im": true, "bei": true, "für": true}

// isName reports whether t is a plan or proper name of the sources, written as one.
func isName(t word, names map[string]string) bool {
	class := names[t.lower]
	return (class == classPlanName || class == classProperName) && isCapitalised(t.text)
}

// leadWords may open a list item before its name.
var leadWords = map[string]bool{"and": true, "or": true, "und": true, "oder": true, "the": true, "with": true, "mit": true, "der": true, "die": true, "das": true}

// namesIn lists the plan and proper names s writes with a capital, in order; a numbered
// name (numberedNames) in place of its name, which it tells apart from its namesakes.
func (v *Vocabulary) namesIn(s string, names map[string]string) []string {
	numbered := numberedNames(s, names)
	var out []string
	for _, t := range wordTokens(s) {
		if !isName(t, names) || slices.Contains(out, t.lower) {
			continue
		}
		if i := slices.IndexFunc(numbered, func(n string) bool { return strings.HasPrefix(n, t.lower+" ") }); i >= 0 {
			out = append(out, numbered[i])
			numbered = slices.Delete(numbered, i, i+1)
			continue
		}
		out = append(out, t.lower)
	}
	return out
}

// numberedName is a name followed by a number that is part of it: "Fibre 500", "Plan 2".
// The number must stand alone, not as an amount or a share ("Essential, 75", "Pro 20%").
var numberedName = regexp.MustCompile(`(\p{Lu}[\p{L}]*) (\d+)(?:[^\d%.,:\p{L}]|[.,:](?:\s|$)|$)`)

// numberedNames lists the numbered names s writes, lower case ("fibre 500"): two
// products that share a name are told apart by their numbers, so "Fibre 500 costs €45
// and Fibre 1000 costs €60" is a list of two items.
func numberedNames(s string, names map[string]string) []string {
	if len(names) == 0 || !strings.ContainsAny(s, "0123456789") {
		return nil
	}
	var out []string
	for _, m := range numberedName.FindAllStringSubmatch(s, -1) {
		name := strings.ToLower(m[1])
		if class := names[name]; class == classPlanName || class == classProperName {
			out = append(out, name+" "+m[2])
		}
	}
	return out
}

// namesItems reports whether a sentence whose subjects are subjects names two of a list
// unit's items or more, as a copy of the list does.
func namesItems(subjects map[string]string, itemNames []string) bool {
	n := 0
	for _, name := range itemNames {
		if _, ok := subjects[name]; ok {
			n++
		}
	}
	return n >= 2
}

// namesNone reports whether a sentence whose subjects are subjects names none of names:
// an item of a list backs no sentence that names another item ("Everyday costs £12"
// beside "Starter at £12").
func namesNone(subjects map[string]string, names []string) bool {
	return !slices.ContainsFunc(names, func(n string) bool { _, ok := subjects[n]; return ok })
}
