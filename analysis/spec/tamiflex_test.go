package spec

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestImportTamiFlexLongLine: a line longer than any buffer (2 MB, as a generated
// class name makes it) is reported like any malformed target, and the lines after
// it are still read.
func TestImportTamiFlexLongLine(t *testing.T) {
	long := "Class.forName;" + strings.Repeat("x", 2<<20) + " y;a.B.m;3;;\n"
	log := "Class.forName;a.First;a.B.m;1;;\n" + long + "Class.forName;a.Last;a.B.m;5;;\n"
	es, probs, err := ReadTamiFlex("refl.log", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, Format(e))
	}
	if want := "a.B.m @ 1 => a.First\na.B.m @ 5 => a.Last"; strings.Join(got, "\n") != want {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	if len(probs) != 1 || probs[0].Line != 2 || !strings.Contains(probs[0].Msg, "malformed Class.forName target") {
		t.Errorf("problems = %v, want the long line's malformed target at line 2", probs)
	}
}

// TestImportTamiFlexMalformedTargets: targets of the kinds that make call edges are
// reported with their line and column when they cannot be read, instead of being
// dropped; kinds without call edges and array classes are skipped quietly.
func TestImportTamiFlexMalformedTargets(t *testing.T) {
	log := strings.Join([]string{
		"Method.invoke;a.C.m();a.B.m;1;;",                              // not a Soot signature
		"Method.invoke;<a.C: void m(int>;a.B.m;2;;",                    // unclosed parameters
		"Constructor.newInstance;<a.C: void make()>;a.B.m;3;;",         // not a constructor
		"Class.forName;;a.B.m;4;;",                                     // empty class name
		"Class.newInstance;a/C;a.B.m;5;;",                              // internal name
		"ClassLoader.loadClass;a.lower;a.B.m;6;;",                      // would read back as a method
		"Method.invoke;<a.C: java.lang.String m(in t)>;a.B.m;7;;",      // bad parameter type
		"Class.forName;[[I;a.B.m;8;;",                                  // an array class: no code
		"Field.get;<a.C: int f>;a.B.m;9;;",                             // no call edge
		"Constructor.newInstance;<a.C: void <init>(int[])>;a.B.m;10;;", // fine
	}, "\n")
	es, probs, err := ReadTamiFlex("refl.log", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 || Format(es[0]) != "a.B.m @ 10 => a.C.<init>([I)V" {
		t.Errorf("entries = %v", es)
	}
	wantLines := []int{1, 2, 3, 4, 5, 6, 7}
	if len(probs) != len(wantLines) {
		t.Fatalf("problems = %v, want one for each of lines %v", probs, wantLines)
	}
	for i, p := range probs {
		if p.Line != wantLines[i] || p.Col < 2 || !strings.HasPrefix(p.Error(), "refl.log:") {
			t.Errorf("problem %d = %v, want line %d with a column", i, p, wantLines[i])
		}
	}
}

type failingReader struct{ data io.Reader }

func (r failingReader) Read(p []byte) (int, error) {
	n, err := r.data.Read(p)
	if errors.Is(err, io.EOF) {
		return n, errors.New("device gone")
	}
	return n, err
}

// TestReadTamiFlexError: a read error is an error, not a short log.
func TestReadTamiFlexError(t *testing.T) {
	es, _, err := ReadTamiFlex("refl.log", failingReader{strings.NewReader("Class.forName;a.C;a.B.m;1;;\n")})
	if err == nil || !strings.Contains(err.Error(), "device gone") || !strings.Contains(err.Error(), "refl.log") {
		t.Errorf("err = %v, want the read error naming the log", err)
	}
	if len(es) != 1 {
		t.Errorf("entries before the error = %v", es)
	}
}
