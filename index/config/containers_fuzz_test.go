package config

import (
	"strings"
	"testing"
)

// FuzzContainerIndexes feeds arbitrary bytes to the readers of Sisu's index and
// spring.factories: they must not panic, and whatever they record is an internal
// class name with a line of the file.
func FuzzContainerIndexes(f *testing.F) {
	f.Add([]byte("# c\n  p.A trailing\np.B#x\n\xff\nnot-a-name\r\n"))
	f.Add([]byte("p.F=p.A,\\\n  p.B ,,p.C\n9bad=p.D\np.G=\\u12\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &reader{c: &Config{indexed: map[IndexKind][]Indexed{}}}
		r.containerIndex(&container{path: "x"}, SisuIndex, SisuIndexFile, data)
		r.containerIndex(&container{path: "x"}, SpringFactories, SpringFactoriesFile, data)
		for _, xs := range r.c.indexed {
			for _, x := range xs {
				if x.Class == "" || strings.Contains(x.Class, ".") || strings.Contains(x.Key, ".") || x.Source.Line < 1 {
					t.Fatalf("recorded %+v", x)
				}
			}
		}
	})
}
