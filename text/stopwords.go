package text

import "strings"

// Stopwords are the English and German function words (drawn from NLTK's English and
// Snowball's German lists) and the small talk of support email ("hi", "thanks",
// "wondering"). They carry no topic, so retrieval (the local embedder and the full-text
// query) and the extractive drafter both ignore them: a long, polite email must not look
// similar to every long, polite macro.

// IsStopword reports whether a lowercased word is a stopword.
func IsStopword(word string) bool { return stopwords[word] }

var stopwords = setOf(stopwordList...)

// IsStopwordLetterDropped reports whether a lowercased word of three letters or more is a
// stopword typed with one letter missing ("onl" for "only", "vil" for "viel"): a typo that
// names nothing either.
func IsStopwordLetterDropped(word string) bool { return letterDropped[word] }

// letterDropped holds every stopword with one of its letters left out, read once so that
// checking a word is one lookup.
var letterDropped = func() map[string]bool {
	out := map[string]bool{}
	for _, w := range stopwordList {
		rs := []rune(w)
		for i, r := range rs {
			if strings.ContainsRune("abcdefghijklmnopqrstuvwxyzäöüß", r) && len(rs) > 3 {
				out[string(rs[:i])+string(rs[i+1:])] = true
			}
		}
	}
	return out
}()

var stopwordList = []string{
	// English
	"a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any",
	"anything", "are", "as", "at", "be", "because", "been", "before", "being", "below",
	"between", "both", "but", "by", "can", "cannot", "could", "did", "do", "does", "doing",
	"don't", "down", "during", "each", "either", "else", "etc", "even", "ever", "every",
	"few", "for", "from", "further", "get", "gets", "got", "had", "has", "have", "having",
	"he", "her", "here", "hers", "him", "his", "how", "however", "i", "i'm", "i've", "if",
	"in", "into", "is", "it", "it's", "its", "just", "let", "like", "may", "me", "might",
	"more", "most", "much", "must", "my", "myself", "no", "nor", "not", "now", "of", "off",
	"on", "once", "one", "only", "or", "other", "our", "ours", "out", "over", "own", "per",
	"same", "shall", "she", "should", "so", "some", "such", "than", "that", "that's", "the",
	"their", "theirs", "them", "then", "there", "these", "they", "this", "those", "through",
	"to", "too", "under", "until", "up", "upon", "us", "very", "via", "was", "we", "we'll",
	"we're", "were", "what", "when", "where", "whether", "which", "while", "who", "whom",
	"why", "will", "with", "within", "without", "would", "yes", "you", "you'll", "you're",
	"your", "yours", "yourself",
	"ourselves", "yourselves", "himself", "herself", "itself", "themselves", "you've",
	"you'd", "she's", "that'll", "should've", "aren't", "can't", "couldn't", "didn't",
	"doesn't", "hadn't", "hasn't", "haven't", "isn't", "mightn't", "mustn't", "needn't",
	"shan't", "shouldn't", "wasn't", "weren't", "won't", "wouldn't",
	// Support-email small talk.
	"hi", "hello", "hey", "dear", "thanks", "thank", "please", "regards", "best", "cheers",
	"kind", "wondering", "wonder", "question", "questions", "know", "want", "wanted", "need",
	"needs", "help", "able", "ok", "okay", "sure", "tell", "told", "ask", "asking", "really",
	"anyone", "someone", "something", "reply", "email", "mail",
	// Reply and forward prefixes of subjects ("Re:", "Fwd:", German "AW:", "WG:").
	"re", "fw", "fwd", "aw", "wg",
	// German
	"aber", "alle", "allem", "allen", "aller", "alles", "als", "also", "am", "an", "ander",
	"andere", "auch", "auf", "aus", "bei", "beim", "bin", "bis", "bitte", "bist", "da",
	"damit", "dann", "das", "dass", "dem", "den", "denn", "der", "des", "dich", "die", "dir",
	"doch", "dort", "du", "durch", "ein", "eine", "einem", "einen", "einer", "eines", "er",
	"es", "etwas", "euch", "euer", "für", "gibt", "hab", "habe", "haben", "hallo", "hat",
	"hatte", "ich", "ihm", "ihn", "ihnen", "ihr", "ihre", "ihrem", "ihren", "ihrer", "im",
	"in", "innerhalb", "ist", "ja", "jede", "jeder", "kann", "kein", "keine", "können",
	"könnte", "man", "mein", "meine", "meinem", "meinen", "meiner", "mich", "mir", "mit",
	"muss", "nach", "nicht", "noch", "nun", "nur", "ob", "oder", "ohne", "schon", "sehr",
	"sein", "seine", "sich", "sie", "sind", "so", "soll", "über", "um", "und", "uns",
	"unser", "unsere", "unter", "vom", "von", "vor", "war", "waren", "was", "weil", "wenn",
	"wer", "werde", "werden", "wie", "wir", "wird", "wo", "zu", "zum", "zur", "danke",
	"grüße", "gruß", "viele", "vielen", "frage", "liebe", "lieber", "guten",
	"anderem", "anderen", "anderer", "anderes", "anderm", "andern", "anders", "derselbe",
	"derselben", "denselben", "desselben", "demselben", "dieselbe", "dieselben", "dasselbe",
	"dazu", "dein", "deine", "deinem", "deinen", "deiner", "deines", "derer", "dessen",
	"dies", "diese", "diesem", "diesen", "dieser", "dieses", "einig", "einige", "einigem",
	"einigen", "einiger", "einiges", "einmal", "eure", "eurem", "euren", "eurer", "eures",
	"gegen", "gewesen", "hatten", "hier", "hin", "hinter", "ihres", "indem", "ins", "jedem",
	"jeden", "jedes", "jene", "jenem", "jenen", "jener", "jenes", "jetzt", "keinem",
	"keinen", "keiner", "keines", "machen", "manche", "manchem", "manchen", "mancher",
	"manches", "meines", "musste", "nichts", "seinem", "seinen", "seiner", "seines",
	"selbst", "solche", "solchem", "solchen", "solcher", "solches", "sollte", "sondern",
	"sonst", "unserem", "unseren", "unseres", "viel", "während", "warst", "weg", "weiter",
	"welche", "welchem", "welchen", "welcher", "welches", "wieder", "wirst", "wollen",
	"wollte", "würde", "würden", "zwar", "zwischen",
}
