package jdkmodel

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// jdk25 is a second JDK image the model must cover when the machine has it.
const jdk25 = "/usr/lib/jvm/temurin-25-jdk-amd64"

// TestModelCoversJDK checks that every native method of each JDK image on the
// machine (the one the tests use, and JDK 25 when present) matches an entry of the
// shipped model, and lists the ones that do not: a new JDK shows what is unmodelled.
func TestModelCoversJDK(t *testing.T) {
	m, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	homes := []string{javatest.JDKHome(t)}
	if _, err := os.Stat(jdk25); err == nil {
		homes = append(homes, jdk25)
	} else {
		t.Logf("JDK 25 not found at %s: only %s is checked", jdk25, homes[0])
	}
	for _, home := range homes {
		t.Run(home, func(t *testing.T) {
			ix, err := index.Build(context.Background(), index.Config{JDKHome: home}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			natives, missing := 0, []string{}
			for _, meth := range ix.Hierarchy().Methods() {
				if !meth.IsNative() || meth.Class.Origin != hierarchy.JDK {
					continue
				}
				natives++
				if m.Lookup(meth.Class.Name, meth.Name, meth.Desc) == nil {
					missing = append(missing, meth.Class.Name+"."+meth.Name+meth.Desc)
				}
			}
			if natives < 1000 {
				t.Fatalf("only %d native methods in %s: not a JDK image?", natives, home)
			}
			if len(missing) > 0 {
				t.Errorf("%d of %d native methods of %s are not in the model:\n%s", len(missing), natives, home, strings.Join(missing, "\n"))
			}
		})
	}
}
