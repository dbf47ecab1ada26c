// Command pipegen compiles declarative pipeline specs (YAML, Spark
// Declarative Pipelines semantics) into standalone Go programs that write
// Delta Lake tables. See docs/spec.md for the spec format.
package main

import "os"

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
