package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

// printContainers lists the containers read, each archive nested in a jar
// right after the jar, with its origin and the classes it contributes (the
// classes shadowed by an earlier container are not counted).
func printContainers(w io.Writer, cp *classpath.ClassPath) {
	counts := map[string]int{}
	for _, c := range cp.Classes {
		counts[c.Container]++
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "containers:")
	row := func(c classpath.Container) {
		fmt.Fprintf(tw, "  %s\t%d classes\t%s\n", c.Origin, counts[c.Path], c.Path)
	}
	for _, c := range cp.Containers {
		row(c)
		for _, n := range cp.Nested {
			if strings.HasPrefix(n.Path, c.Path+"!/") {
				row(n)
			}
		}
	}
	tw.Flush()
}

// printClasses lists the classes of the class path but the JDK's (tens of
// thousands of lines that say nothing about the application), in
// resolution order, with their origin and where they were read.
func printClasses(w io.Writer, cp *classpath.ClassPath) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "classes:")
	for _, c := range cp.Classes {
		if c.Origin != classpath.JDK {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", c.Origin, c.Name, c.Location())
		}
	}
	tw.Flush()
}
