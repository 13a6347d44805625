package javasrc

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func parseSample(t *testing.T) *File {
	t.Helper()
	src, err := os.ReadFile("testdata/Sample.java")
	if err != nil {
		t.Fatal(err)
	}
	return Parse(src)
}

// line returns the 1-based line of an offset.
func line(f *File, off int32) int { return f.LineOf(off) + 1 }

func TestTypes(t *testing.T) {
	f := parseSample(t)
	if f.Package != "p.q" {
		t.Errorf("package %q", f.Package)
	}
	var got []string
	for _, ty := range f.Types {
		name := f.BinaryName(ty)
		switch {
		case ty.Anonymous:
			name = fmt.Sprintf("anonymous %s in %s", ty.Super, ty.Outer.Name)
		case ty.Local:
			name = fmt.Sprintf("local %s in %s.%s", ty.Name, ty.Outer.Name, ty.Code.Name)
		}
		got = append(got, fmt.Sprintf("%d %s", line(f, ty.NameTok.Off), name))
	}
	want := []string{
		"14 p/q/Sample",
		"29 p/q/Sample$Inner",
		"30 p/q/Sample$Nested",
		"47 local Local in Sample.anon",
		"49 anonymous Nested in Sample",
		"54 p/q/Sample$Color",
		"55 anonymous Color in Color",
		"61 p/q/Sample$Point",
		"66 p/q/Sample$Shape",
		"67 p/q/Sample$Tag",
	}
	if !slices.Equal(got, want) {
		t.Errorf("types:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if tp := f.Types[0].TypeParams; !slices.Equal(tp, []string{"T"}) {
		t.Errorf("type parameters of Sample: %v", tp)
	}
	if c := f.Types[7].Components; len(c) != 2 || c[1] != (Param{Type: "int", Name: "y"}) {
		t.Errorf("record components %+v", c)
	}
}

func TestCodes(t *testing.T) {
	f := parseSample(t)
	var got []string
	for _, c := range f.Codes {
		var ps []string
		for _, p := range c.Params {
			ps = append(ps, p.Type+strings.Repeat("[]", p.Dims))
		}
		s := fmt.Sprintf("%d-%d %s %s.%s(%s)", line(f, c.Start), line(f, c.End), c.Kind, c.Type.Name, c.Name, strings.Join(ps, ","))
		if c.Static {
			s += " static"
		}
		got = append(got, s)
	}
	want := []string{
		"15-15 field initializer Sample.NAME() static",
		"16-16 field initializer Sample.a()",
		"17-17 initializer Sample.<clinit>() static",
		"18-18 initializer Sample.<init>()",
		"20-20 constructor Sample.Sample()",
		"21-21 constructor Sample.Sample(int)",
		"23-23 method Sample.pick(Entry[],int[])",
		"24-24 method Sample.over(String)",
		"25-25 method Sample.over(String,int)",
		"26-26 method Sample.compute(int) static",
		"27-27 method Sample.init(String) static",
		"29-29 method Inner.m()",
		"30-30 constructor Nested.Nested(String)",
		"32-44 method Sample.lambdas(List)",
		"33-33 lambda Sample.lambda()",
		"34-37 lambda Sample.lambda()",
		"35-35 lambda Sample.lambda()",
		"46-52 method Sample.anon()",
		"47-47 method Local.run()",
		"50-50 method .toString()",
		"55-55 field initializer Color.RED() static",
		"55-55 field initializer Color.GREEN() static",
		"55-55 method .v()",
		"55-55 field initializer Color.BLUE() static",
		"56-56 constructor Color.Color()",
		"57-57 constructor Color.Color(int)",
		"58-58 method Color.v()",
		"62-62 constructor Point.Point(int,int)",
		"63-63 method Point.origin() static",
		"66-66 method Shape.area()",
		"66-66 method Shape.name()",
		"66-66 field initializer Shape.SIDES() static",
		"67-67 method Tag.value()",
		"67-67 method Tag.more()",
	}
	if !slices.Equal(got, want) {
		t.Errorf("codes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	pick := f.Codes[6]
	if !slices.Equal(pick.TypeParams, []string{"U"}) || !pick.Params[1].Varargs {
		t.Errorf("pick: type params %v, params %+v", pick.TypeParams, pick.Params)
	}
}

func TestCalls(t *testing.T) {
	f := parseSample(t)
	var got []string
	for _, c := range f.Calls {
		l, col := f.Position(c.Tok.Off)
		owner := "-"
		if c.Code != nil {
			owner = c.Code.Kind.String() + " " + c.Code.Name
		}
		got = append(got, fmt.Sprintf("%d:%d %s (%s)", l+1, col, c.Name, owner))
	}
	for _, want := range []string{
		"20:15 this (constructor Sample)",
		"21:20 super (constructor Sample)",
		"33:21 -> (method lambdas)",
		"33:35 println (lambda lambda)",
		"35:36 -> (lambda lambda)",
		"38:30 :: (method lambdas)",
		"39:47 compute (method lambdas)", // in a switch rule, not a lambda
		"43:29 over (method lambdas)",    // after "😀": UTF-16 column 29, byte column 31
		"48:12 Local (method anon)",
		"49:19 Nested (method anon)",
		"50:65 compute (method toString)",
		"55:16 GREEN (field initializer GREEN)",
		"62:37 IllegalArgumentException (constructor Point)",
		"66:91 compute (field initializer SIDES)",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("missing call %q", want)
		}
	}
	for _, s := range got {
		if strings.Contains(s, " if ") || strings.Contains(s, " switch ") || strings.HasPrefix(s, "41:") {
			t.Errorf("keyword or text block taken for a call: %s", s)
		}
	}
}

func TestPositions(t *testing.T) {
	f := Parse([]byte("a\r\nb😀c\rd\n"))
	for _, tc := range []struct {
		line, col int
		off       int32
	}{
		{0, 0, 0}, {0, 1, 1}, {1, 0, 3}, {1, 1, 4}, {1, 3, 8}, {1, 4, 9}, {2, 0, 10}, {3, 0, 12},
		{1, 99, 9}, // clamped to the end of the line
	} {
		if got := f.Offset(tc.line, tc.col); got != tc.off {
			t.Errorf("Offset(%d, %d) = %d, want %d", tc.line, tc.col, got, tc.off)
		}
		if tc.col != 99 {
			if l, c := f.Position(tc.off); l != tc.line || c != tc.col {
				t.Errorf("Position(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
			}
		}
	}
}

func TestPackageOf(t *testing.T) {
	for src, want := range map[string]string{
		"/* c */ package a.b . c; class X {}":   "a.b.c",
		"// package x;\nimport y.Z; class X {}": "",
		"@Deprecated package p;":                "p",
		"":                                      "",
	} {
		if got := PackageOf([]byte(src)); got != want {
			t.Errorf("PackageOf(%q) = %q, want %q", src, got, want)
		}
	}
}

func TestImports(t *testing.T) {
	if got, want := parseSample(t).Imports, []Import{{Name: "java.util.*"}, {Name: "java.util.function.*"}}; !slices.Equal(got, want) {
		t.Errorf("Sample's imports %+v, want %+v", got, want)
	}
	f := Parse([]byte("package p;\nimport static java.lang.Math.max;\nimport java.util.Map . Entry; // c\nimport q.*;\nclass A { void m() { } }"))
	want := []Import{{Name: "java.lang.Math.max", Static: true}, {Name: "java.util.Map.Entry"}, {Name: "q.*"}}
	if !slices.Equal(f.Imports, want) {
		t.Errorf("imports %+v, want %+v", f.Imports, want)
	}
}

// FuzzParse checks that no input makes the scanner panic or loop, and that what it
// returns is consistent: every construct and call lies within the text.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("../../testdata/java/*/src/*/*.java")
	more, _ := filepath.Glob("../../testdata/lsp/*/src/main/java/*/*.java")
	seeds = append(append(seeds, more...), "testdata/Sample.java")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("class A { void m() { new B() { { x -> { ( } }"))
	f.Add([]byte(`"""`))
	f.Fuzz(func(t *testing.T, src []byte) {
		file := Parse(src)
		n := int32(len(src))
		for _, c := range file.Codes {
			if c.Start < 0 || c.Start > n || c.End > n {
				t.Fatalf("code %+v outside the text", c)
			}
		}
		for _, c := range file.Calls {
			if c.Tok.Off < 0 || c.Tok.End > n || c.Tok.Off >= c.Tok.End {
				t.Fatalf("call %+v outside the text", c)
			}
		}
		for off := int32(0); off <= n; off += max(1, n/16) {
			l, col := file.Position(off)
			if got := file.Offset(l, col); got > off && (off == n || utf8.RuneStart(src[off])) {
				t.Fatalf("Offset(Position(%d)) = %d", off, got)
			}
			file.CodeAt(off)
			file.TypeAt(off)
			file.CallAt(off)
			file.TokenAt(off)
		}
	})
}
