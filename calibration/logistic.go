package calibration

import (
	"fmt"
	"math"
	"strings"
)

// Set is one labelled set's drafts and the name it is reported under.
type Set struct {
	Name    string
	Samples []Sample
}

// FitLogistic fits Platt scaling, p = 1/(1+e^−(slope·raw+intercept)), by Newton's method
// on the log-likelihood. Each set weighs the same whatever its size, so the largest set
// does not decide the curve alone for knowledge bases unlike it. As in Platt's paper the
// targets are smoothed, (grounded+1)/(grounded+2) and 1/(others+2) over all drafts, so
// sets that separate perfectly still give a finite curve.
func FitLogistic(sets []Set, version int) (Mapping, error) {
	type point struct {
		x, w     float64
		grounded bool
	}
	var pts []point
	var names []string
	pos := 0
	for _, s := range sets {
		if len(s.Samples) == 0 {
			return Mapping{}, fmt.Errorf("logistic calibration: set %s has no drafts", s.Name)
		}
		w := 1 / float64(len(s.Samples))
		for _, d := range s.Samples {
			pts = append(pts, point{d.Raw, w, d.Grounded})
			if d.Grounded {
				pos++
			}
		}
		names = append(names, s.Name)
	}
	hi, lo := float64(pos+1)/float64(pos+2), 1/float64(len(pts)-pos+2)
	var a, b float64
	for range 100 {
		var ga, gb, haa, hab, hbb float64
		for _, p := range pts {
			y := lo
			if p.grounded {
				y = hi
			}
			q := sigmoid(a*p.x + b)
			ga += p.w * (q - y) * p.x
			gb += p.w * (q - y)
			h := p.w * q * (1 - q)
			haa, hab, hbb = haa+h*p.x*p.x, hab+h*p.x, hbb+h
		}
		det := haa*hbb - hab*hab
		if det <= 1e-12 {
			return Mapping{}, fmt.Errorf("logistic calibration on %s: the raw confidences do not vary", strings.Join(names, ", "))
		}
		da, db := (hbb*ga-hab*gb)/det, (haa*gb-hab*ga)/det
		a, b = a-da, b-db
		if math.Abs(da) < 1e-10 && math.Abs(db) < 1e-10 {
			break
		}
	}
	if a < 0 || math.IsNaN(a) || math.IsNaN(b) {
		return Mapping{}, fmt.Errorf("logistic calibration on %s: slope %g: grounded drafts do not score higher", strings.Join(names, ", "), a)
	}
	return Mapping{Version: version, Method: MethodLogistic, FittedOn: names, Drafts: len(pts),
		Logistic: &Logistic{Slope: a, Intercept: b}}, nil
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }
