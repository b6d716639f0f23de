package dataset

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/supportdraft/supportdraft/text"
	"github.com/supportdraft/supportdraft/ticket"
)

// write composes the ticket's subject and messages around the intent's core phrasings,
// and adds to the label what overlays (fake policies, injections) make necessary.
func (g *generator) write(s *slot, c *Ctx, item *Item, exp *Expect) {
	it, m := s.intent, &item.Meta
	lang := "en"
	core, subjects := it.EN, it.Subjects
	if c.German() {
		lang, core, subjects = "de", it.DE, it.DeSubjects
	}
	pool := noise[lang]
	g.persona(c, lang)

	channel := "email"
	switch x := g.r.Float64(); {
	case x < 0.18:
		channel = "chat"
	case x < 0.30:
		channel = "web"
	}
	m.Style = "normal"
	switch x := g.r.Float64(); {
	case x < 0.15:
		m.Style = "terse"
	case x < 0.30:
		m.Style = "rambling"
	}
	m.Typos = g.r.Float64() < map[string]float64{"en": 0.2, "de": 0.12}[lang]

	pick := func() string {
		i := g.deal(it.ID+"/"+lang, len(core))
		m.Phrasings = append(m.Phrasings, fmt.Sprintf("%s/%s/%d", it.ID, lang, i))
		return g.fill(core[i], c, lang)
	}

	// What the customer adds beyond the question: a stale value, a fake policy, an injection.
	var extra string
	switch s.overlay {
	case "fake", "injection":
		terms, templates := pool.fakes, pool.fakeTemplates
		if s.overlay == "injection" {
			terms, templates = pool.injectionTerms, pool.injections
		}
		term := terms[g.r.IntN(len(terms))]
		c.P["term"] = g.fill(term.text, c, lang)
		extra = g.fill(templates[g.r.IntN(len(templates))], c, lang)
		exp.MustNotInclude = append(exp.MustNotInclude, g.fill(term.fact, c, lang))
	default:
		if x := remarkValue(exp.MustNotInclude); x != "" && g.r.Float64() < 0.3 {
			c.P["x"] = localiseFact(x, lang)
			extra = g.fill(pool.remarks[g.r.IntN(len(pool.remarks))], c, lang)
			m.Remark = true
		}
	}
	extraLast := s.multi && g.r.IntN(2) == 0

	first := g.body(c, lang, m, channel, pick(), ifThen(!extraLast, extra), true)
	msgs := []ticket.Message{{Author: "customer", Body: first}}
	if s.multi {
		if g.r.Float64() < 0.8 {
			reply := pool.agentReplies[g.r.IntN(len(pool.agentReplies))]
			if s.kind == KindOffTopic || g.r.Float64() < 0.25 {
				reply = pool.neutralAgentReplies[g.r.IntN(len(pool.neutralAgentReplies))]
			}
			if x := remarkValue(exp.MustNotInclude); x != "" && g.r.Float64() < 0.3 {
				c.P["x"] = localiseFact(x, lang)
				reply = pool.staleAgentReplies[g.r.IntN(len(pool.staleAgentReplies))]
			}
			msgs = append(msgs, ticket.Message{Author: "agent", Body: g.fill(reply, c, lang)})
			follow := g.fill(pool.followUps[g.r.IntN(len(pool.followUps))], c, lang)
			msgs = append(msgs, ticket.Message{Author: "customer", Body: g.body(c, lang, m, channel, follow+" "+pick(), ifThen(extraLast, extra), false)})
		} else {
			bump := g.fill(pool.bumps[g.r.IntN(len(pool.bumps))], c, lang)
			msgs = append(msgs, ticket.Message{Author: "customer", Body: g.body(c, lang, m, channel, bump+"\n\n"+pick(), ifThen(extraLast, extra), false)})
		}
	}
	// Times: the last message is updated_at; earlier ones minutes to days before.
	at := c.T
	for i := len(msgs) - 1; i >= 0; i-- {
		msgs[i].At = at
		at = at.Add(-time.Duration(10+g.r.IntN(60*40)) * time.Minute)
	}

	subject := g.fill(subjects[g.r.IntN(len(subjects))], c, lang)
	if g.r.Float64() < 0.3 {
		subject = g.fill(pool.subjects[g.r.IntN(len(pool.subjects))], c, lang)
	}
	if m.Style == "terse" && g.r.IntN(2) == 0 {
		subject = strings.ToLower(subject)
	}
	if s.multi && g.r.Float64() < 0.7 {
		subject = map[string]string{"en": "Re: ", "de": "AW: "}[lang] + subject
	}
	item.Ticket.Ticket = ticket.Ticket{
		TicketID:  "T-00000", // numbered once all tickets are sorted by time
		Revision:  len(msgs),
		UpdatedAt: c.T,
		Account:   ticket.Account{ID: c.P["acct"], Plan: c.Plan, Region: c.Region, Locale: c.Locale},
		Channel:   channel,
		Subject:   subject,
		Messages:  msgs,
	}
}

func ifThen(cond bool, s string) string {
	if cond {
		return s
	}
	return ""
}

// body writes one customer message in the ticket's style around the core question.
func (g *generator) body(c *Ctx, lang string, m *Meta, channel, core, extra string, first bool) string {
	pool := noise[lang]
	p := func(x float64) bool { return g.r.Float64() < x }
	one := func(list []string) string { return g.fill(list[g.r.IntN(len(list))], c, lang) }
	area := pool.areaStories[intentByID(m.Intent).Area]

	var lines []string
	var para []string
	switch {
	case m.Style == "terse":
		core = terse(core)
		if m.Typos {
			core = g.typos(core, 1+g.r.IntN(2))
		}
		if extra != "" {
			return core + "\n" + extra
		}
		return core
	case m.Style == "rambling" && first:
		n := 2 + g.r.IntN(3)
		for range n {
			if len(area) > 0 && p(0.45) {
				para = append(para, one(area))
			} else {
				para = append(para, one(pool.stories))
			}
		}
		para = append(para, core)
		para = append(para, one(pool.tangents))
		if p(0.5) {
			para = append(para, one(pool.tangents))
		}
	default:
		if first && p(0.4) {
			if len(area) > 0 && p(0.6) {
				para = append(para, one(area))
			} else {
				para = append(para, one(pool.stories))
			}
		}
		para = append(para, core)
		if p(0.3) {
			para = append(para, one(pool.details))
		}
	}
	text := strings.Join(dedupe(para), " ")
	if m.Typos {
		text = g.typos(text, 1+g.r.IntN(4))
	}
	if extra != "" {
		if p(0.5) {
			text += "\n\n" + extra
		} else {
			text += " " + extra
		}
	}
	if channel != "chat" && p(0.8) || channel == "chat" && p(0.3) {
		lines = append(lines, one(pool.openers))
		text = stripGreeting(text)
	}
	lines = append(lines, text)
	if channel != "chat" && p(0.75) || channel == "chat" && p(0.2) {
		lines = append(lines, one(pool.closers))
	}
	if channel == "email" && p(0.65) {
		lines = append(lines, one(pool.signatures))
	}
	return strings.Join(lines, "\n\n")
}

var greeting = regexp.MustCompile(`^(?i:hello|hi|hey|hallo|guten tag),\s+`)

// stripGreeting drops a phrasing's own greeting when the message already opens with one.
func stripGreeting(s string) string {
	if loc := greeting.FindStringIndex(s); loc != nil {
		rest := s[loc[1]:]
		r, size := utf8.DecodeRuneInString(rest)
		return string(unicode.ToUpper(r)) + rest[size:]
	}
	return s
}

// terse turns a phrasing into the way some people write: lower case, no final stop.
func terse(s string) string {
	s = strings.TrimRight(strings.TrimSpace(s), ".!")
	if r, size := utf8.DecodeRuneInString(s); unicode.IsUpper(r) {
		s = string(unicode.ToLower(r)) + s[size:]
	}
	return s
}

// typos makes k small slips in text: swapped, dropped or doubled letters, lost apostrophes,
// "u" for "you". Words with digits or capitals stay, so amounts and names survive.
func (g *generator) typos(text string, k int) string {
	words := strings.Split(text, " ")
	var cand []int
	for i, w := range words {
		if utf8.RuneCountInString(w) >= 4 && !strings.ContainsAny(w, "0123456789{}@€£$%") && w == strings.ToLower(w) {
			cand = append(cand, i)
		}
	}
	for ; k > 0 && len(cand) > 0; k-- {
		j := g.r.IntN(len(cand))
		i := cand[j]
		cand = slices.Delete(cand, j, j+1)
		rs := []rune(words[i])
		pos := 1 + g.r.IntN(len(rs)-2)
		switch g.r.IntN(5) {
		case 0:
			rs[pos], rs[pos+1] = rs[pos+1], rs[pos]
		case 1:
			rs = slices.Delete(rs, pos, pos+1)
		case 2:
			rs = slices.Insert(rs, pos, rs[pos])
		case 3:
			rs = []rune(strings.ReplaceAll(string(rs), "'", ""))
		default:
			if string(rs) == "your" {
				rs = []rune("ur")
			} else {
				rs[pos], rs[pos-1] = rs[pos-1], rs[pos]
			}
		}
		words[i] = string(rs)
	}
	out := strings.Join(words, " ")
	if g.r.IntN(4) == 0 {
		out = strings.ReplaceAll(out, " you ", " u ")
	}
	return out
}

// remarkValue returns a must_not_include fact a customer could plausibly quote (a number
// of days, months, a percentage or an amount), or "".
func remarkValue(facts []string) string {
	for _, f := range facts {
		for _, q := range text.Quantities(f) {
			if q.Unit == "day" || q.Unit == "month" || q.Unit == "percent" || strings.HasPrefix(q.Unit, "money:") {
				return f
			}
		}
	}
	return ""
}

// localiseFact writes an English fact the way a German customer would.
func localiseFact(f, lang string) string {
	if lang != "de" {
		return f
	}
	r := strings.NewReplacer(" days", " Tage", " months", " Monate", " weeks", " Wochen", "%", " %")
	return r.Replace(f)
}

var placeholder = regexp.MustCompile(`\{([a-z0-9]+)\}`)

// fill replaces {placeholders} with the ticket's values, choosing them on first use.
func (g *generator) fill(s string, c *Ctx, lang string) string {
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		return g.value(m[1:len(m)-1], c, lang)
	})
}

var (
	monthsEN = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	monthsDE = []string{"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"}
)

// value returns the ticket's value for a placeholder, the same every time it is used.
func (g *generator) value(key string, c *Ctx, lang string) string {
	if v, ok := c.P[key]; ok {
		return v
	}
	var v string
	switch key {
	case "plan":
		v = strings.ToUpper(c.Plan[:1]) + c.Plan[1:]
	case "askplan":
		v = "Business"
		if c.Plan == "business" {
			v = "Pro"
		}
	case "days":
		v = fmt.Sprint(2 + g.r.IntN(40))
	case "n":
		v = fmt.Sprint(2 + g.r.IntN(7))
	case "seats":
		v = fmt.Sprint(4 + g.r.IntN(70))
	case "inv":
		v = fmt.Sprintf("INV-%d-%05d", c.T.Year(), g.r.IntN(100000))
	case "acct":
		v = fmt.Sprintf("A-%d", 1000+g.r.IntN(90000))
	case "amount":
		whole := 40 + g.r.IntN(4000)
		cents := []int{0, 0, 0, 50, 80, 20}[g.r.IntN(6)]
		v = money(c, lang, whole, cents)
	case "cur":
		v = currency(c, lang)
	case "date":
		d := c.T.Add(-time.Duration(1+g.r.IntN(25)) * 24 * time.Hour)
		if lang == "de" {
			v = fmt.Sprintf("%d. %s", d.Day(), monthsDE[d.Month()-1])
		} else if g.r.IntN(2) == 0 {
			v = fmt.Sprintf("%s %d", monthsEN[d.Month()-1], d.Day())
		} else {
			v = fmt.Sprintf("%d %s", d.Day(), monthsEN[d.Month()-1])
		}
	case "month":
		d := c.T.AddDate(0, -1-g.r.IntN(4), 0)
		v = monthsEN[d.Month()-1]
		if lang == "de" {
			v = monthsDE[d.Month()-1]
		}
	case "card":
		v = c.pick("Visa", "Mastercard", "Amex", "company Visa", "corporate Mastercard")
	case "country":
		v = countryOf(c, lang)
	case "state":
		v = c.pick("Texas", "New York", "California", "Ohio", "Washington", "Illinois", "Colorado", "Georgia", "Florida", "Pennsylvania")
	case "ws":
		v = strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return unicode.ToLower(r)
			}
			if r == ' ' {
				return '-'
			}
			return -1
		}, c.P["company"])
	default:
		v = "{" + key + "}"
	}
	c.P[key] = v
	return v
}

// money formats an amount the way a customer in the account's region writes it.
func money(c *Ctx, lang string, whole, cents int) string {
	thousands := func(n int, sep string) string {
		if n < 1000 {
			return fmt.Sprint(n)
		}
		return fmt.Sprintf("%d%s%03d", n/1000, sep, n%1000)
	}
	if lang == "de" {
		return fmt.Sprintf("%s,%02d €", thousands(whole, "."), cents)
	}
	if cents == 0 {
		return currency(c, lang) + thousands(whole, ",")
	}
	return fmt.Sprintf("%s%s.%02d", currency(c, lang), thousands(whole, ","), cents)
}

func currency(c *Ctx, lang string) string {
	switch {
	case lang == "de" || c.Region == "eu":
		return "€"
	case c.Region == "uk":
		return "£"
	}
	return "$"
}

// countryOf names a country in the account's region.
func countryOf(c *Ctx, lang string) string {
	if lang == "de" {
		return c.pick("Deutschland", "Österreich")
	}
	switch c.Region {
	case "eu":
		return c.pick("Germany", "France", "the Netherlands", "Spain", "Italy", "Ireland", "Austria", "Finland", "Belgium", "Portugal", "Poland", "Sweden")
	case "uk":
		return c.pick("the UK", "England", "Scotland", "Wales", "Northern Ireland")
	case "us":
		return "the US"
	}
	return c.pick("Australia", "Singapore", "New Zealand", "Japan", "Hong Kong")
}

// persona gives the ticket a writer: name, company, role, phone, account ID.
func (g *generator) persona(c *Ctx, lang string) {
	first := firstNames[g.r.IntN(len(firstNames))]
	last := lastNames[g.r.IntN(len(lastNames))]
	if lang == "de" {
		first, last = firstNamesDE[g.r.IntN(len(firstNamesDE))], lastNamesDE[g.r.IntN(len(lastNamesDE))]
	}
	company := companies[g.r.IntN(len(companies))]
	if lang == "de" {
		company = companiesDE[g.r.IntN(len(companiesDE))]
	}
	c.P["first"], c.P["last"], c.P["company"] = first, last, company
	c.P["name"] = first + " " + last
	c.P["title"] = titles[lang][g.r.IntN(len(titles[lang]))]
	c.P["phone"] = phone(c, g, lang)
	g.value("acct", c, lang)
}

func phone(c *Ctx, g *generator, lang string) string {
	switch {
	case lang == "de":
		return fmt.Sprintf("+%s %d %07d", c.pick("49", "43"), 30+g.r.IntN(60), g.r.IntN(10000000))
	case c.Region == "eu":
		return fmt.Sprintf("+%s %d %07d", c.pick("49", "31", "33", "34", "353", "43"), 10+g.r.IntN(89), g.r.IntN(10000000))
	case c.Region == "uk":
		return fmt.Sprintf("+44 20 %04d %04d", g.r.IntN(10000), g.r.IntN(10000))
	case c.Region == "us":
		return fmt.Sprintf("(%d) %03d-%04d", 200+g.r.IntN(700), g.r.IntN(1000), g.r.IntN(10000))
	}
	return fmt.Sprintf("+%s %04d %04d", c.pick("61", "65", "64"), g.r.IntN(10000), g.r.IntN(10000))
}
