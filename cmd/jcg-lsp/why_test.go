package main

import (
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// TestWhy asks about methods of testdata/java/cg/virtual (without the JDK): main
// calls pick (Main.java line 37), which returns an English, a French or a Base
// greeter; Silent is never instantiated, so under RTA from Encap-Respect on (where
// no native code instantiates anything) Silent.greet is not reachable.
func TestWhy(t *testing.T) {
	classes := javatest.Compile(t, javatest.Program(t, "cg/virtual"), javatest.Release(17))
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"--method", "virt.Main.pick"}, []string{
			"virt.Main.pick(I)Lvirt/Greeter; is reachable at Encap-Respect (TFA); a shortest path from an entry point:",
			"  1. virt.Main.main([Ljava/lang/String;)V (entry point)",
			"  2. virt.Main.pick(I)Lvirt/Greeter;",
			"       <- static call at line 37",
		}},
		{[]string{"--method", "virt.Main.main"}, []string{"virt.Main.main([Ljava/lang/String;)V is an entry point at Encap-Respect (TFA)."}},
		{[]string{"--algo", "rta", "--method", "virt.Silent.greet"}, []string{"virt.Silent.greet()Ljava/lang/String; is not reachable at Encap-Respect (RTA) from the 1 entry points."}},
	}
	for _, tc := range cases {
		args := append([]string{"why", "--no-jdk", "--level", "2"}, tc.args...)
		code, stdout, stderr, err := runCmd(append(args, classes)...)
		if err != nil || code != 0 {
			t.Fatalf("%v: exit %d, %v\n%s", tc.args, code, err, stderr)
		}
		got := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%v:\n%s\nwant:\n%s", tc.args, stdout, strings.Join(tc.want, "\n"))
		}
	}
	// A method the class path does not have is an error that names it.
	code, _, _, err := runCmd("why", "--no-jdk", "--method", "virt.Main.nope", classes)
	if code != 1 || err == nil || !strings.Contains(err.Error(), `"virt.Main.nope": no such method in virt.Main`) {
		t.Errorf("unknown method: exit %d, %v", code, err)
	}
	code, _, _, err = runCmd("why", "--no-jdk", classes)
	if code != 2 || err == nil || !strings.Contains(err.Error(), "--method") {
		t.Errorf("no --method: exit %d, %v", code, err)
	}
}
