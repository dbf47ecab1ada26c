package types

import (
	"sort"
	"strings"
)

// Suggestions of names for "did you mean" hints, shared by the compiler
// (unknown datasets, columns) and the runtime (unknown tables of the
// warehouse).

// Suggest returns the candidate nearest to name by edit distance
// (case-insensitive Levenshtein), or "" when none is close enough: a
// candidate qualifies when its distance is at most a third of the longer
// length, rounded up, and at least 1. Ties go to the first in sorted order,
// so the answer is deterministic.
func Suggest(name string, candidates []string) string {
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	best, bestDist := "", -1
	lname := strings.ToLower(name)
	for _, c := range sorted {
		if c == name {
			continue
		}
		d := EditDistance(lname, strings.ToLower(c))
		limit := (max(len([]rune(name)), len([]rune(c))) + 2) / 3
		if limit < 1 {
			limit = 1
		}
		if d > limit {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// EditDistance is the Levenshtein distance between a and b, in runes: the
// fewest single-rune insertions, deletions and substitutions that turn a
// into b.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
