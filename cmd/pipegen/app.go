package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	prt "github.com/pipegen/pipegen/runtime"
	pcli "github.com/pipegen/pipegen/runtime/cli"
)

// Exit codes of every command.
const (
	exitOK          = 0 // success
	exitDiagnostics = 1 // the spec has errors, or a run failed
	exitUsage       = 2 // wrong command line
)

// commands is the command table: one constructor per command, each in its
// own file. Add a command by writing its file and listing it here.
var commands = []func() *cli.Command{
	validateCommand,
	schemaCommand,
	explainCommand,
	graphCommand,
	buildCommand,
	runCommand,
	diffCommand,
	initCommand,
	testCommand,

	inferCommand,
	versionCommand,
}

// exitError carries a command's exit code through urfave/cli.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// usageError is a command-line mistake: printed, then exit code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// run is the whole program: it parses args (args[0] is the program name),
// runs the command and returns the exit code. It never calls os.Exit.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := &cli.App{
		Name:            "pipegen",
		Usage:           "compile declarative pipeline specs into Go programs that write Delta Lake tables",
		Reader:          stdin,
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		Version:         prt.Version,
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return usageError{err.Error()}
		},
		CommandNotFound: func(_ *cli.Context, name string) {
			fmt.Fprintf(stderr, "pipegen: unknown command %q (run pipegen --help)\n", name)
		},
	}
	for _, c := range commands {
		cmd := c()
		cmd.HideHelpCommand = true // "explain spec.yaml h" explains dataset h; --help prints help
		cmd.OnUsageError = func(_ *cli.Context, err error, _ bool) error { return usageError{err.Error()} }
		app.Commands = append(app.Commands, cmd)
	}
	args = pcli.HelpArgs(app, args)
	unknown := false
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") && app.Command(args[1]) == nil {
		unknown = true
	}
	err := app.Run(pcli.PermuteFlags(app, args))
	var ee exitError
	var ue usageError
	switch {
	case unknown:
		return exitUsage
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "pipegen: %s\n", ue.msg)
		return exitUsage
	}
	fmt.Fprintf(stderr, "pipegen: %v\n", err)
	if strings.Contains(err.Error(), "flag provided but not defined") {
		return exitUsage
	}
	return exitDiagnostics
}

// plural counts what: "1 table", "2 tables", "1,502 records".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return thousands(int64(n)) + " " + what + "s"
}

// thousands writes n with a comma every three digits.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
