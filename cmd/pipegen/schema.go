package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/schema"
)

func schemaCommand() *cli.Command {
	return &cli.Command{
		Name:  "schema",
		Usage: "print the JSON Schema of pipeline specs (for editors)",
		Description: "Prints pipegen.schema.json (JSON Schema draft 2020-12). Save it and point\n" +
			"yaml-language-server at it with a first line such as\n" +
			"  # yaml-language-server: $schema=./pipegen.schema.json",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("schema: takes no arguments")
			}
			return WriteSchema(c.App.Writer)
		},
	}
}

// WriteSchema writes the embedded JSON Schema of pipeline specs to w.
func WriteSchema(w io.Writer) error {
	_, err := w.Write(schema.JSON)
	return err
}
