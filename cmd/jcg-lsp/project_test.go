package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/internal/debmaven"
)

type jcgMethod struct {
	Name           string   `json:"name"`
	DeclaringClass string   `json:"declaringClass"`
	ParameterTypes []string `json:"parameterTypes"`
}

type jcgGraph struct {
	ReachableMethods []struct {
		Method    jcgMethod `json:"method"`
		CallSites []struct {
			Targets []jcgMethod `json:"targets"`
		} `json:"callSites"`
	} `json:"reachableMethods"`
}

// TestProjectMultiModule analyses the multi-module Maven test project with
// --project: discovery runs Maven (Debian's, offline) for the modules'
// dependencies, so the graph reaches the library methods the program calls, and
// Guava's transformed list calls the program's function back.
func TestProjectMultiModule(t *testing.T) {
	t.Setenv("HOME", debmaven.Home(t))
	debmaven.Maven(t)
	dir := debmaven.Workspace(t, "multi", "core", "app")
	out := filepath.Join(t.TempDir(), "cg.json")
	code, _, stderr, err := runCmd("callgraph", "--project", dir, "--algo", "rta", "--format", "jcg", "--app-only", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %v\n%s", code, err, stderr)
	}
	if !strings.Contains(stderr, "maven build at "+dir+": 5 libraries, 0 missing (mvn dependency:tree") {
		t.Errorf("stderr does not say Maven resolved 5 libraries:\n%s", stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var g jcgGraph
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	reachable := map[string]bool{}
	callback := false
	for _, rm := range g.ReachableMethods {
		reachable[rm.Method.DeclaringClass+"."+rm.Method.Name] = true
		if !strings.HasPrefix(rm.Method.DeclaringClass, "Lcom/google/common/collect/") {
			continue
		}
		for _, cs := range rm.CallSites {
			for _, tg := range cs.Targets {
				// Shout.apply(Object), javac's bridge of Function<String,String>.apply.
				callback = callback || tg.DeclaringClass == "Lexample/app/Main$Shout;" && tg.Name == "apply"
			}
		}
	}
	for _, want := range []string{
		"Lcom/google/common/collect/Lists;.transform",      // called by Main.main
		"Lexample/core/Names;.shout",                       // the core module, through Shout.apply
		"Lorg/apache/commons/lang3/StringUtils;.upperCase", // core's dependency, called by Names.shout
	} {
		if !reachable[want] {
			t.Errorf("%s is not reachable", want)
		}
	}
	if !callback {
		t.Error("no method of com.google.common.collect calls Main$Shout.apply: Guava's transformed list should call the function back")
	}
}

// TestProjectMissing analyses a project whose dependency is in no repository:
// analyze names the missing classes the reachable code refers to, with the
// dependency that should have provided them, and the declaration's place in
// pom.xml is on standard error.
func TestProjectMissing(t *testing.T) {
	t.Setenv("HOME", debmaven.Home(t))
	dir := debmaven.Workspace(t, "missing")
	// Maven where it is installed, else the POMs: both tell the same.
	code, stdout, stderr, err := runCmd("analyze", "--project", dir, "--build-tool", "maven", "--levels", "correct-jdk", "--algo", "rta", "--verbose")
	if code != 0 {
		t.Fatalf("exit %d: %v\n%s", code, err, stderr)
	}
	for _, want := range []string{
		"Missing classes (referenced by reachable code, on no class path): 3 in 1 packages",
		"  3 would come from org.example:nowhere:1.0\n",
		"org.example.nowhere: 3 (from org.example:nowhere:1.0, not in the local repository",
		// new, <init> and spin in main; super() in Fancy's constructor; Fancy's superclass.
		"org.example.nowhere.Widget: call, new, supertype, 5 references",
		"org.example.nowhere.Gadget: cast, constant, 2 references, first in example.missing.App.main (line 22)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("analyze's output lacks %q:\n%s", want, stdout)
		}
	}
	if want := filepath.Join(dir, "pom.xml") + ":16:5: org.example:nowhere:1.0 is not in the local repository"; !strings.Contains(stderr, want) {
		t.Errorf("standard error lacks %q:\n%s", want, stderr)
	}
}

// TestProjectErrors checks the mistakes of --project and --build-tool.
func TestProjectErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"analyze", "--project", ".", "x.jar"}, 2, "--project takes the class path from the project"},
		{[]string{"analyze", "--project", ".", "--build-tool", "ant"}, 2, `--build-tool "ant": want one of auto, maven, gradle, off`},
		{[]string{"why", "--method", "a.B.c", "--project", "/nonexistent/dir"}, 1, "--project /nonexistent/dir: stat /nonexistent/dir: no such file or directory"},
		{[]string{"analyze", "--project", t.TempDir()}, 1, "no class directories or jars of the application"},
	} {
		code, _, stderr, err := runCmd(c.args...)
		if code != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%v: exit %d, %v (stderr %q); want exit %d and %q", c.args, code, err, stderr, c.code, c.msg)
		}
	}
}
