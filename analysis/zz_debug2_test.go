package analysis

import (
	"context"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

func TestZZDebugSvc(t *testing.T) {
	ix, err := index.Build(context.Background(), index.Config{JDKHome: "/usr/lib/jvm/java-17-openjdk-amd64", Sources: []classpath.Source{{Path: "/tmp/ten/classes", Origin: classpath.Application}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	a := New(ix)
	sp := a.serviceProviders()
	t.Logf("known %v classes %d factories %d unread %v", sp.known, len(sp.classes), len(sp.factories), ix.Config().Unread())
	g, err := a.Run(context.Background(), Options{Level: callgraph.CorrectJDK, Algorithm: callgraph.CHA})
	if err != nil {
		t.Fatal(err)
	}
	m := ix.Hierarchy().Class("java/util/ServiceLoader$ProviderImpl").Method("invokeFactoryMethod", "()Ljava/lang/Object;")
	for _, s := range g.SitesOf(m.ID) {
		t.Logf("site line %d %s %v: %s", s.Line, s.API, s.Status, s.Evidence)
	}
}
