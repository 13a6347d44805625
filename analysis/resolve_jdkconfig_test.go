package analysis

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/graphcheck"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// TestServiceLoaderFromConfiguration analyses testdata/java/services, whose
// META-INF/services file declares ZipCodec as the one provider of Codec. From the
// program and ServiceLoader's specification, at every level (service files are part
// of the closed world each level analyses): the instantiation sites in ServiceLoader
// are resolved from the configuration, reach ZipCodec.<init>() and do not reach
// Unlisted.<init>() (public, but named by no configuration, where level 2's fallback
// would reach every public constructor); and the levels nest.
func TestServiceLoaderFromConfiguration(t *testing.T) {
	prog := javatest.Program(t, "services")
	dir := t.TempDir()
	javatest.CopyTree(t, javatest.Compile(t, prog, javatest.Release(17)), dir)
	javatest.CopyTree(t, filepath.Join(prog, "..", "resources"), dir) // Program names the src directory
	ix, err := index.Build(context.Background(), index.Config{Sources: []classpath.Source{{Path: dir, Origin: classpath.Application}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	h := ix.Hierarchy()
	zip := h.Class("services/ZipCodec").Method("<init>", "()V")
	unlisted := h.Class("services/Unlisted").Method("<init>", "()V")
	a := New(ix)
	var gs []*callgraph.Graph
	for _, lv := range []callgraph.Level{callgraph.BehavedCLs, callgraph.EncapRespect, callgraph.CorrectEnv, callgraph.CorrectJDK} {
		g, err := a.Run(context.Background(), Options{Level: lv, Algorithm: callgraph.RTA})
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
		var sites int
		for _, s := range g.Sites {
			caller := h.Methods()[s.Caller]
			if s.Feature != callgraph.FeatInstantiation || !strings.HasPrefix(caller.Class.Name, "java/util/ServiceLoader") {
				continue
			}
			sites++
			var targets []int32
			if s.Targets >= 0 {
				targets = slices.Clone(g.Sets[s.Targets])
			}
			// Fallback targets live in the site's bundles, not in Targets.
			for _, b := range g.Callees(s.Caller) {
				if b.PC == s.PC {
					targets = append(targets, g.Sets[b.Set]...)
				}
			}
			hasZip, hasUnlisted := slices.Contains(targets, zip.ID), slices.Contains(targets, unlisted.ID)
			where := graphcheck.MethodName(h, g, s.Caller) + " line " + strconv.Itoa(int(s.Line))
			if s.Status != callgraph.Resolved || !hasZip || hasUnlisted || !strings.Contains(s.Evidence, "META-INF/services") {
				t.Errorf("level %d, %s: status %v (%s), reaches ZipCodec.<init> %v, Unlisted.<init> %v; want resolved from the service files, true, false",
					lv, where, s.Status, s.Evidence, hasZip, hasUnlisted)
			}
		}
		if sites == 0 {
			t.Errorf("%v: no instantiation site of ServiceLoader is reachable", lv)
		}
		if !g.Reachable.Has(zip.ID) {
			t.Errorf("%v: ZipCodec.<init> is not reachable", lv)
		}
	}
	graphcheck.CheckSubgraph(t, gs, h)
}
