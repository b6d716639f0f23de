package redact

import (
	"context"
	"strings"
	"unicode/utf8"
)

type namesKey struct{}

// WithNames returns ctx carrying the names the ticket's account is known by (the person
// writing, as the help desk or the inbound mail gives it). The activity that loaded the
// ticket sets them; a remote model client reads them with NamesFrom and hides them with
// Text. They travel in the context rather than in the drafter's and judge's signatures
// because only a remote client needs them: local providers send nothing anywhere.
func WithNames(ctx context.Context, names []string) context.Context {
	if len(names) == 0 {
		return ctx
	}
	return context.WithValue(ctx, namesKey{}, names)
}

// NamesFrom returns the names WithNames put in ctx, or nil.
func NamesFrom(ctx context.Context) []string {
	names, _ := ctx.Value(namesKey{}).([]string)
	return names
}

// NameForms are the forms of a person's name to hide: the whole name and each of its
// words of three letters or more, since a customer signs "Ana" and an agent writes "Dear
// Ms Ruiz". Shorter words ("Li", "Al") are left: as whole words, case-insensitively, they
// would hide too much ordinary text. A common word that is also a name part ("May",
// "Will") is hidden in the model's copy too; the reply is restored, so only the model's
// reading of that sentence suffers.
func NameForms(name string) []string {
	name = strings.Join(strings.Fields(name), " ")
	if name == "" {
		return nil
	}
	forms := []string{name}
	for _, w := range strings.Fields(name) {
		w = strings.Trim(w, `.,"'()`)
		if utf8.RuneCountInString(w) >= 3 && w != name {
			forms = append(forms, w)
		}
	}
	return forms
}
