package sql

import (
	"sort"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file holds what diagnostics share: ordering and "did you mean"
// suggestions.

// sortErrors orders errors by offset, keeping the order of equal ones, and
// drops exact duplicates.
func sortErrors(errs []*Error) []*Error {
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Offset < errs[j].Offset })
	out := errs[:0]
	for i, e := range errs {
		if i > 0 {
			p := errs[i-1]
			if p.Offset == e.Offset && p.Code == e.Code && p.Message == e.Message {
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// suggest returns the candidate closest to name (case-insensitively) when
// it is close enough to be a likely typo, else "".
func suggest(name string, candidates []string) string {
	best, bestDist := "", -1
	lname := strings.ToLower(name)
	for _, c := range candidates {
		d := types.EditDistance(lname, strings.ToLower(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	if bestDist < 0 || bestDist > (len([]rune(name))+1)/3 {
		return ""
	}
	return best
}
