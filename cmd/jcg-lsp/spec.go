package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
)

const specUsage = `usage: jcg-lsp spec <subcommand> [flags]

Specification files pin down what unresolved dynamic sites may reach (see
analysis/spec).

subcommands:
  check            fail when an entry is malformed or names a site the classes no longer have
  import-tamiflex  add a TamiFlex refl.log's observations to a specification file

Run 'jcg-lsp spec <subcommand> -h' for its flags.
`

// runSpec handles `jcg-lsp spec check` (speccheck.go) and `jcg-lsp spec
// import-tamiflex [--out FILE] refl.log...`, which writes specification entries for
// the reflective calls a TamiFlex run observed, merged into an existing file (sorted,
// one line per site), never dropping what the file had.
func runSpec(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprint(stdout, specUsage)
		return flag.ErrHelp
	}
	if len(args) > 0 && args[0] == "check" {
		return runSpecCheck(ctx, args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "import-tamiflex" {
		return usagef("spec: want a subcommand: check or import-tamiflex (see 'jcg-lsp spec -h')")
	}
	cmd := newCommand("spec import-tamiflex", "[--out FILE] REFL_LOG...",
		"Adds the reflective calls a TamiFlex run observed (its refl.log files) to a\nspecification file as entries, each at its sorted place; what the file had stays.")
	fs := cmd.fs
	out := fs.String("out", spec.DefaultName, "specification file to create or extend (- for standard output)")
	if err := cmd.parse(args[1:], stdout); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("spec import-tamiflex: give one or more refl.log files")
	}
	var existing []byte
	if *out != "-" {
		b, err := os.ReadFile(*out)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		existing = b
	}
	old := spec.Parse(*out, existing)
	have := map[string]bool{}
	for _, e := range old.Entries {
		have[spec.Format(e)] = true
	}
	var added []spec.Entry
	for _, path := range fs.Args() {
		es, probs, err := readTamiFlex(path)
		for _, p := range probs {
			fmt.Fprintln(stderr, p.Error())
		}
		if err != nil {
			// Nothing is written: a log that cannot be read in full is not a smaller log.
			return err
		}
		for _, e := range es {
			if !have[spec.Format(e)] {
				have[spec.Format(e)] = true
				added = append(added, e)
			}
		}
	}
	text := string(existing)
	if text == "" {
		text = spec.Header
	}
	// Insert each entry at its sorted place, so the file stays reviewable line by line.
	for _, e := range added {
		lines := strings.SplitAfter(text, "\n")
		at := spec.InsertionLine([]byte(text), e.Site)
		if at > len(lines) {
			at = len(lines)
		}
		if at > 0 && !strings.HasSuffix(lines[at-1], "\n") {
			lines[at-1] += "\n"
		}
		lines = append(lines[:at], append([]string{spec.Format(e) + "\n"}, lines[at:]...)...)
		text = strings.Join(lines, "")
	}
	if *out == "-" {
		_, err := io.WriteString(stdout, text)
		return err
	}
	if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d entries added\n", *out, len(added))
	return nil
}
