package local

import (
	"strings"

	"github.com/supportdraft/supportdraft/text"
)

// quantityKind is what kind of number a question asks for, as a set: "how long" wants a
// duration, "what percentage" a rate, "how much" an amount or a rate. A section that
// states only another kind of number ("3 retries" for "how long until suspension") does
// not answer it.
type quantityKind uint8

const (
	kindDuration quantityKind = 1 << iota
	kindMoney
	kindPercent
	kindCount
	kindAny = kindDuration | kindMoney | kindPercent | kindCount
)

// numberAsks maps the ways a question asks for a number, English and German, to the kinds
// it wants.
var numberAsks = []struct {
	phrase string
	kinds  quantityKind
}{
	{" how long", kindDuration}, {" how quickly", kindDuration}, {" how fast", kindDuration},
	{" how soon", kindDuration}, {" how far back", kindDuration}, {" timeline", kindDuration},
	{" by when", kindDuration}, {" until when", kindDuration}, {" since when", kindDuration},
	{" ab wann", kindDuration}, {" when will", kindDuration}, {" when does", kindDuration},
	{" when do ", kindDuration}, {" when is ", kindDuration}, {" when are ", kindDuration},
	{" when can", kindDuration}, {" when would", kindDuration}, {" when should", kindDuration},
	{" deadline", kindDuration}, {" frist", kindDuration}, {" processing time", kindDuration},
	{" time frame", kindDuration}, {" timeframe", kindDuration}, {" turnaround", kindDuration},
	{" wie lange", kindDuration}, {" wie schnell", kindDuration},
	{" bis wann", kindDuration},
	{" how much", kindMoney | kindPercent}, {" wie viel", kindMoney | kindPercent},
	{" wieviel", kindMoney | kindPercent}, {" wie hoch", kindMoney | kindPercent},
	{" what price", kindMoney},
	{" what percentage", kindPercent}, {" what rate", kindPercent}, {" what discount", kindPercent},
	{" welcher satz", kindPercent},
	{" how many", kindAny}, {" how old", kindAny}, {" how often", kindAny}, {" wie oft", kindAny},
}

// timeOpeners open a question that asks for a time: "When does it end?" does, while "what
// happens when the trial ends?" asks what happens, so "when" counts only as an opener or
// before the verb of a question ("card declined - when will you lock us out?"). An opener
// followed by a comma opens a clause that sets the scene for the question after it ("When
// I cancel, do I lose my data?", "When searching in Drive, can I look in one folder?"):
// that question asks no time.
var timeOpeners = []string{"when ", "wann "}

// askedKinds returns the kinds of number the question asks for; 0 when it asks for none.
func askedKinds(s string) quantityKind {
	var kinds quantityKind
	for _, clause := range text.SplitLines(s) {
		lower := " " + text.Fold(clause) + " "
		for _, a := range numberAsks {
			if strings.Contains(lower, a.phrase) {
				kinds |= a.kinds
			}
		}
		for _, o := range timeOpeners {
			if strings.HasPrefix(lower[1:], o) && !strings.Contains(lower, ",") {
				kinds |= kindDuration
			}
		}
	}
	return kinds
}

// kindOf is the kind of a quantity package text read.
func kindOf(q text.Quantity) quantityKind {
	switch {
	case strings.HasPrefix(q.Unit, "money:"):
		return kindMoney
	case q.Unit == "percent":
		return kindPercent
	case q.Unit == "count":
		return kindCount
	}
	return kindDuration
}

// statesKind reports whether a sentence states a number of one of the kinds asked for.
func statesKind(sentence string, kinds quantityKind) bool {
	for _, q := range text.Quantities(sentence) {
		if kindOf(q)&kinds != 0 {
			return true
		}
	}
	return false
}
