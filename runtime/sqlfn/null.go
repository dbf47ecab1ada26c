package sqlfn

// IfValid returns v when valid is true and T's zero value otherwise: the
// canonical value of a NULL, so that generated hash keys (GROUP BY,
// DISTINCT, join keys) treat every NULL alike whatever its value slot held.
func IfValid[T any](valid bool, v T) T {
	if valid {
		return v
	}
	var zero T
	return zero
}
