package spec

import "github.com/pipegen/pipegen/runtime/types"

// Suggest returns the candidate nearest to name by edit distance
// (case-insensitive Levenshtein), or "" when none is close enough; see
// types.Suggest, which the runtime shares.
func Suggest(name string, candidates []string) string { return types.Suggest(name, candidates) }

// didYouMean returns the hint `did you mean "x"?` for the nearest candidate,
// or "".
func didYouMean(name string, candidates []string) string {
	if s := Suggest(name, candidates); s != "" {
		return `did you mean "` + s + `"?`
	}
	return ""
}
