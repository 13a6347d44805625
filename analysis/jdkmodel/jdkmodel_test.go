package jdkmodel

import (
	"errors"
	"strings"
	"testing"
)

func TestShippedModelParses(t *testing.T) {
	m, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Entries) == 0 {
		t.Fatal("the shipped model has no entries")
	}
}

func TestParse(t *testing.T) {
	src := `# a model
native java/lang/Thread.start0()V
    dispatch this java/lang/Thread.run ()V
    call java/lang/Thread.exit ()V
    evidence thread.cpp
native java/lang/Thread.sleep
  none
  evidence none
native java/lang/StrictMath.*
	none
	evidence fdlibm
native sun/nio/**
    new java/io/IOException (Ljava/lang/String;)V
    evidence io_util.c
jvm startup
    call java/lang/System.initPhase1 ()V
    dispatch any java/lang/ClassLoader.loadClass (Ljava/lang/String;)Ljava/lang/Class;
    evidence threads.cpp
jvm jfr
    when jvm.jfr
    call jdk/jfr/internal/JVMUpcalls.unhideInternalTypes ()V
    evidence jfr
`
	m, errs := Parse("t.model", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	cases := []struct{ class, name, desc, want string }{
		{"java/lang/Thread", "start0", "()V", "native java/lang/Thread.start0()V"},
		{"java/lang/Thread", "start0", "(I)V", ""}, // other descriptor, and no name entry
		{"java/lang/Thread", "sleep", "(J)V", "native java/lang/Thread.sleep"},
		{"java/lang/StrictMath", "sin", "(D)D", "native java/lang/StrictMath.*"},
		{"sun/nio/ch/IOUtil", "fdVal", "(Ljava/io/FileDescriptor;)I", "native sun/nio/**"},
		{"sun/niox/A", "f", "()V", ""}, // a package prefix is not a package
		{"java/lang/Object", "hashCode", "()I", ""},
	}
	for _, c := range cases {
		got := ""
		if e := m.Lookup(c.class, c.name, c.desc); e != nil {
			got = e.Selector()
		}
		if got != c.want {
			t.Errorf("Lookup(%s.%s%s) = %q, want %q", c.class, c.name, c.desc, got, c.want)
		}
	}
	e := m.Lookup("java/lang/Thread", "start0", "()V")
	if len(e.Effects) != 2 || e.Effects[0].String() != "dispatch this java/lang/Thread.run ()V" || e.Effects[1].Kind != EffCall {
		t.Errorf("start0 effects = %v", e.Effects)
	}
	if jvm := m.JVM(); len(jvm) != 2 || jvm[0].Name != "startup" || jvm[0].Effects[1].Value.Kind != ValAny || jvm[0].When != "" || jvm[1].When != "jvm.jfr" {
		t.Errorf("JVM() = %v", jvm)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"native a/B.c()V\n    none\n", "1: native a/B.c()V names no evidence"},
		{"native a/B.c()V\n    evidence x\n", "1: native a/B.c()V has no effects"},
		{"    none\n", "1: an effect outside any entry"},
		{"natve a/B.c\n", "1: an entry starts with native or jvm"},
		{"native a/B.c(X)V\n", "1: bad method descriptor"},
		{"native a/B\n", "1: want class.method"},
		{"native a/B.c\n  none\n  call a/B.d ()V\n  evidence x\n", "3: none cannot be combined"},
		{"native a/B.c\n  dispatch that a/B.d ()V\n  evidence x\n", "2: want this, argN or any"},
		{"jvm x\n  dispatch this a/B.d ()V\n  evidence x\n", "2: a jvm entry has no receiver"},
		{"native a/B.c\n  new a/B ()I\n  evidence x\n", "2: new wants CLASS and a constructor descriptor"},
		{"native a/B.c\n  handover magic\n  evidence x\n", "2: unknown feature"},
		{"native a/B.c\n  returns any\n  evidence x\n", "2: returns wants this or argN"},
		{"native a/B.c\n  jump a/B\n  evidence x\n", "2: unknown effect"},
		{"native a/B.c\n  none\n  evidence x\nnative a/B.c\n  none\n  evidence y\n", "4: native a/B.c is already an entry at line 1"},
		{"native a/B.c\n  when jvm.jfr\n  none\n  evidence x\n", "2: when applies to jvm entries only"},
		{"jvm j\n  when jvm.a\n  when jvm.b\n  none\n  evidence x\n", "3: jvm j has a when already"},
		{"jvm j\n  when a b\n  none\n  evidence x\n", "2: bad when key"},
	}
	for _, c := range cases {
		_, errs := Parse("f.model", []byte(c.src))
		if len(errs) == 0 {
			t.Errorf("%q: no error, want %q", c.src, c.want)
			continue
		}
		var me *Error
		if !errors.As(errs[0], &me) || me.File != "f.model" {
			t.Errorf("%q: error %v does not name the file", c.src, errs[0])
		}
		if !strings.Contains(errs[0].Error(), c.want) {
			t.Errorf("%q: error %q, want it to contain %q", c.src, errs[0], c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(shipped)
	f.Add([]byte("native a/B.c(I[Ljava/lang/String;)V\n  dispatch arg1 a/C.d ()V\n  evidence x\n"))
	f.Add([]byte("jvm j\n  new a/B ()V\n  alloc a/C\n  init a/D\n  evidence e\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, errs := Parse("fuzz.model", data)
		for _, err := range errs {
			if !strings.HasPrefix(err.Error(), "fuzz.model:") {
				t.Fatalf("error without position: %v", err)
			}
		}
		for _, e := range m.Entries {
			if e.Kind != SelJVM && e.Kind != SelPackage {
				if got := m.Lookup(e.Class, e.Name, e.Desc); got == nil {
					t.Fatalf("entry %s does not find itself", e.Selector())
				}
			}
		}
	})
}
