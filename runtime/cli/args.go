package cli

import (
	"strings"

	urfave "github.com/urfave/cli/v2"
)

// The argument rewrites below are shared with pipegen's own command line
// (cmd/pipegen), which is built on urfave/cli v2 the same way.

// HelpArgs turns `PROGRAM help [COMMAND]` (or `h`) into `PROGRAM [COMMAND]
// --help`: the commands have no help subcommand (a table named h is a
// table), so help is a word only in the first place.
func HelpArgs(app *urfave.App, args []string) []string {
	if len(args) < 2 || (args[1] != "help" && args[1] != "h") || app.Command(args[1]) != nil {
		return args
	}
	if len(args) == 2 {
		return []string{args[0], "--help"}
	}
	return []string{args[0], args[2], "--help"}
}

// commandNames lists app's commands, for messages.
func commandNames(app *urfave.App) []string {
	var names []string
	for _, c := range app.Commands {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	return names
}

// PermuteFlags moves a command's flags in front of its positional
// arguments, so that `PROGRAM show TABLE --limit 5` works like
// `PROGRAM show --limit 5 TABLE` (urfave/cli v2 stops parsing flags at
// the first argument). Everything after "--" stays in place.
func PermuteFlags(app *urfave.App, args []string) []string {
	if len(args) < 3 {
		return args
	}
	cmd := app.Command(args[1])
	if cmd == nil || cmd.SkipFlagParsing {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*urfave.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	var flags, pos []string
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			pos = append(pos, rest[i:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if !strings.Contains(name, "=") && takesValue[name] && i+1 < len(rest) {
			flags = append(flags, rest[i+1])
			i++
		}
	}
	out := append([]string{args[0], args[1]}, flags...)
	return append(out, pos...)
}
