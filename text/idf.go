package text

import "math"

// IDF is the inverse document frequency of words over a set of texts (the eligible
// evidence of a question, the sections closest to a message): a word few of them hold
// says more about which one a question is about than a word all of them hold. It is the
// term statistic of every local relevance signal, so none needs a list of the words a
// corpus shares.
type IDF struct {
	df map[string]int
	n  int
}

// NewIDF counts, for each content stem, how many of texts hold it.
func NewIDF(texts []string) IDF {
	idf := IDF{df: map[string]int{}, n: len(texts)}
	for _, t := range texts {
		for st := range StemSet(t) {
			idf.df[st]++
		}
	}
	return idf
}

// Weight is the smoothed inverse document frequency of a stem: ln((n+1)/(df+1)) + 1, so a
// stem none of the texts hold weighs most and one all of them hold weighs 1.
func (idf IDF) Weight(st string) float64 {
	return math.Log(float64(idf.n+1)/float64(idf.df[st]+1)) + 1
}

// Held is the weighted share of stems that have holds: 1 when all of them are held, 0
// when none is (or stems is empty). near, when not nil, also counts a stem as held.
func (idf IDF) Held(stems []string, have map[string]bool, near func(st string) bool) (share float64, lacking []string) {
	held, total := 0.0, 0.0
	for _, st := range stems {
		w := idf.Weight(st)
		total += w
		if have[st] || (near != nil && near(st)) {
			held += w
		} else {
			lacking = append(lacking, st)
		}
	}
	if total == 0 {
		return 0, lacking
	}
	return held / total, lacking
}
