package jvmrecord

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

func TestParseMethod(t *testing.T) {
	for in, want := range map[string]Method{
		"java/lang/String.hashCode()I":                   {"java/lang/String", "hashCode", "()I"},
		"p/Q$$Lambda$14.0x0000000800c03000.run()V":       {"p/Q$$Lambda$14.0x0000000800c03000", "run", "()V"},
		"p/Q.<init>(Ljava/lang/String;)V":                {"p/Q", "<init>", "(Ljava/lang/String;)V"},
		"Top.m(Ljava/util/Map$Entry;)Ljava/lang/Object;": {"Top", "m", "(Ljava/util/Map$Entry;)Ljava/lang/Object;"},
	} {
		got, err := ParseMethod(in)
		if err != nil || got != want {
			t.Errorf("ParseMethod(%q) = %v, %v; want %v", in, got, err, want)
		}
		if got.String() != in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), in)
		}
	}
	for _, bad := range []string{"", "noparen", "p/Q.()V", ".m()V"} {
		if _, err := ParseMethod(bad); err == nil {
			t.Errorf("ParseMethod(%q): no error", bad)
		}
	}
}

func TestParseUnstable(t *testing.T) {
	in := strings.Join([]string{
		"p/A.m()V\t-",
		"p/A.m()V\tp/B.n()V@3", // a second class loader's p/A
		"p/A$$Lambda$3.0x00007f5170000a08.run()V\tp/A.m()V@1",
		"java/lang/invoke/LambdaForm$MH.0x00007f5170002400.invoke(Ljava/lang/Object;)Ljava/lang/Object;\t-",
		"java/lang/invoke/LambdaForm$MH/1234.invoke(Ljava/lang/Object;)Ljava/lang/Object;\t-",
		"java/lang/invoke/LambdaForm$Holder.invoke(Ljava/lang/Object;)Ljava/lang/Object;\t-",
		"java/lang/invoke/LambdaForm$Name.isParam()Z\t-",
		"jdk/proxy1/$Proxy12.greet(Ljava/lang/String;)Ljava/lang/String;\t-",
		"com/sun/proxy/$Proxy3.run()V\t-",
		"jdk/internal/reflect/GeneratedMethodAccessor7.invoke(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;\t-",
		"sun/reflect/GeneratedSerializationConstructorAccessor1.newInstance([Ljava/lang/Object;)Ljava/lang/Object;\t-",
		"inj/Service$$FastClassByGuice$$74456104.newInstance(I[Ljava/lang/Object;)Ljava/lang/Object;\tcom/google/inject/internal/DefaultConstructionProxyFactory$FastClassProxy.newInstance([Ljava/lang/Object;)Ljava/lang/Object;@13",
		"com/google/inject/internal/cglib/core/$MethodWrapper$MethodWrapperKey$$$KeyFactoryByCGLIB$$e23ecb5d.<init>()V\t-",
		"inj/Service$$Guice.run()V\t-", // a name of ours, not a generator's
		"jdk/internal/reflect/NativeMethodAccessorImpl.invoke0(Ljava/lang/reflect/Method;Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;\t-",
		"# methods 15 unresolved 0 failures 0 full 0",
	}, "\n")
	ex, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, m := range ex.Methods {
		kept = append(kept, m.String())
	}
	want := []string{
		"inj/Service$$Guice.run()V",
		"java/lang/invoke/LambdaForm$Holder.invoke(Ljava/lang/Object;)Ljava/lang/Object;",
		"java/lang/invoke/LambdaForm$Name.isParam()Z",
		"jdk/internal/reflect/NativeMethodAccessorImpl.invoke0(Ljava/lang/reflect/Method;Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;",
		"p/A.m()V",
	}
	if strings.Join(kept, "\n") != strings.Join(want, "\n") {
		t.Errorf("kept:\n%s\nwant:\n%s", strings.Join(kept, "\n"), strings.Join(want, "\n"))
	}
	counts := map[string]int{}
	for r, ms := range ex.Unstable {
		counts[r] = len(ms)
	}
	wantCounts := map[string]int{"hidden": 2, "lambda-form": 1, "proxy": 2, "reflection-accessor": 2, "bytecode-gen": 2}
	for r, n := range wantCounts {
		if counts[r] != n {
			t.Errorf("rule %s left out %d methods, want %d (%v)", r, counts[r], n, ex.Unstable[r])
		}
	}
	if c := ex.Callers[Method{"p/A", "m", "()V"}]; c != "" {
		t.Errorf("caller of p/A.m is %q; want none (the first line wins)", c)
	}
	if c := ex.Callers[Method{"p/A$$Lambda$3.0x00007f5170000a08", "run", "()V"}]; c != "p/A.m()V@1" {
		t.Errorf("caller of the lambda: %q", c)
	}
}

func TestParseIncomplete(t *testing.T) {
	for _, in := range []string{
		"p/A.m()V\t-\n", // no trailer: the VM was killed
		"p/A.m()V\t-\n# methods 1 unresolved 1 failures 1 full 0\n",
		"p/A.m()V\t-\n# methods 1 unresolved 0 failures 0 full 1\n",
	} {
		if _, err := Parse(strings.NewReader(in)); err == nil {
			t.Errorf("Parse(%q): no error", in)
		}
	}
}

// agentOrSkip builds the agent, skipping the test only when the tool chain
// (gcc, the JDK's headers) is missing.
func agentOrSkip(t *testing.T, jdk string) {
	t.Helper()
	if _, err := Agent(context.Background(), jdk); err != nil {
		if errors.Is(err, ErrNoToolchain) {
			t.Skipf("cannot build the JVMTI agent (install gcc and a JDK with include/jvmti.h): %v", err)
		}
		t.Fatal(err)
	}
}

func TestRecordProbe(t *testing.T) {
	jdk := javatest.JDKHome(t)
	agentOrSkip(t, jdk)
	classes := javatest.Compile(t, "testdata/probe")
	for _, mode := range []Mode{Entry, Breakpoints} {
		t.Run(mode.String(), func(t *testing.T) { checkProbe(t, jdk, classes, mode) })
	}
}

func checkProbe(t *testing.T, jdk, classes string, mode Mode) {
	t0 := time.Now()
	ex, err := Record(context.Background(), Run{Mode: mode, JavaHome: jdk, Args: []string{"-cp", classes, "probe.Probe"}, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d methods, %v", len(ex.Methods), time.Since(t0).Round(time.Millisecond))
	has := map[string]bool{}
	for _, m := range ex.Methods {
		has[m.String()] = true
	}
	for _, m := range []string{
		"probe/Probe.main([Ljava/lang/String;)V",
		"probe/Probe.direct()V",
		"probe/Probe.viaLambda()I",
		"probe/Probe.lambda$viaLambda$0()Ljava/lang/Integer;",
		"probe/Probe.reflective()V",
		"probe/Probe.lambda$main$1(Ljava/lang/Object;Ljava/lang/reflect/Method;[Ljava/lang/Object;)Ljava/lang/Object;",
		"probe/Probe.onThread()V",
		"java/lang/System.identityHashCode(Ljava/lang/Object;)I", // a native linked at its first call
		"java/lang/Thread.run()V",
	} {
		if !has[m] {
			t.Errorf("%s was not recorded", m)
		}
	}
	// A native bound by RegisterNatives (Object.registerNatives): recorded
	// when called in Entry mode only.
	if hc := has["java/lang/Object.hashCode()I"]; hc != (mode == Entry) {
		t.Errorf("%s mode: Object.hashCode recorded = %v", mode, hc)
	}
	if has["probe/Probe.neverCalled()V"] {
		t.Errorf("probe/Probe.neverCalled()V was recorded")
	}
	// Not reflection-accessor: JDK 18 and later (JEP 416) call reflected
	// methods through method handles, without spun accessor classes.
	for _, r := range []string{"hidden", "proxy"} {
		if len(ex.Unstable[r]) == 0 {
			t.Errorf("rule %s left nothing out; want the probe's %s classes", r, r)
		}
	}
	for _, m := range ex.Methods {
		if strings.Contains(m.Class, "0x") || strings.Contains(m.Class, "/$Proxy") || strings.Contains(m.Class, "$$Lambda") {
			t.Errorf("unstable class kept: %s", m)
		}
	}
	if c := ex.Callers[Method{"probe/Probe", "direct", "()V"}]; !strings.HasPrefix(c, "probe/Probe.main([Ljava/lang/String;)V@") {
		t.Errorf("caller of direct: %q", c)
	}
}

func TestRecordErrors(t *testing.T) {
	jdk := javatest.JDKHome(t)
	agentOrSkip(t, jdk)
	_, err := Record(context.Background(), Run{JavaHome: jdk, Args: []string{"-cp", t.TempDir(), "no.such.Main"}, Timeout: time.Minute})
	if err == nil || !strings.Contains(err.Error(), "no.such.Main") {
		t.Errorf("a missing main class: err = %v; want an error naming the command", err)
	}
	// A non-zero status is accepted with AnyExit: the VM still reaches VMDeath.
	ex, err := Record(context.Background(), Run{JavaHome: jdk, Args: []string{"-cp", t.TempDir(), "no.such.Main"}, AnyExit: true, Timeout: time.Minute})
	if err != nil {
		t.Fatalf("AnyExit: %v", err)
	}
	if len(ex.Methods) == 0 {
		t.Errorf("AnyExit: nothing recorded")
	}
	if _, err := Record(context.Background(), Run{JavaHome: jdk, Args: []string{"-version"}, Timeout: time.Nanosecond}); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("timeout: err = %v", err)
	}
	if _, err := Agent(context.Background(), t.TempDir()); !errors.Is(err, ErrNoToolchain) {
		t.Errorf("Agent of a directory without headers: err = %v; want ErrNoToolchain", err)
	}
}
