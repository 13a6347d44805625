package hierarchy_test

import (
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// BenchmarkNew builds the hierarchy of the whole JDK from parsed class files.
func BenchmarkNew(b *testing.B) {
	inputs := jdkInputs(b)
	b.ReportAllocs()
	var h *hierarchy.Hierarchy
	for b.Loop() {
		h = hierarchy.New(inputs)
	}
	b.ReportMetric(float64(len(h.Classes())), "classes")
	b.ReportMetric(float64(len(h.Methods())), "methods")
}

type selectPair struct {
	recv *hierarchy.Class
	m    *hierarchy.Method
}

// chaPairs returns the questions CHA asks the hierarchy for virtual calls of some of
// the JDK's most called methods: one Select per concrete subtype of the resolved
// method's class.
func chaPairs(b *testing.B, h *hierarchy.Hierarchy) []selectPair {
	var pairs []selectPair
	for _, ref := range []string{
		"java/lang/Object.toString()Ljava/lang/String;",
		"java/lang/Object.hashCode()I",
		"java/lang/Object.equals(Ljava/lang/Object;)Z",
		"java/util/Collection.size()I",
		"java/util/Collection.iterator()Ljava/util/Iterator;",
		"java/util/Collection.stream()Ljava/util/stream/Stream;",
		"java/util/List.get(I)Ljava/lang/Object;",
		"java/util/Map.get(Ljava/lang/Object;)Ljava/lang/Object;",
		"java/util/Map.getOrDefault(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
		"java/util/Iterator.next()Ljava/lang/Object;",
		"java/lang/Runnable.run()V",
		"java/lang/Comparable.compareTo(Ljava/lang/Object;)I",
		"java/io/InputStream.read()I",
		"java/lang/CharSequence.length()I",
	} {
		c, name, desc := splitRefB(b, h, ref)
		m, err := h.ResolveMethod(c, name, desc, c.IsInterface())
		if err != nil {
			b.Fatal(err)
		}
		h.AllSubtypes(c, func(s *hierarchy.Class) bool {
			if !s.IsInterface() && !s.IsAbstract() {
				pairs = append(pairs, selectPair{s, m})
			}
			return true
		})
	}
	return pairs
}

func splitRefB(b *testing.B, h *hierarchy.Hierarchy, ref string) (*hierarchy.Class, string, string) {
	for i := range ref {
		if ref[i] == '(' {
			for j := i; j >= 0; j-- {
				if ref[j] == '.' {
					if c := h.Class(ref[:j]); c != nil {
						return c, ref[j+1 : i], ref[i:]
					}
				}
			}
		}
	}
	b.Fatalf("bad reference %s", ref)
	return nil, "", ""
}

var sinkMethod *hierarchy.Method

// BenchmarkSelect measures one Select, averaged over the questions CHA asks for
// common JDK calls (see chaPairs).
func BenchmarkSelect(b *testing.B) {
	h := hierarchy.New(jdkInputs(b))
	pairs := chaPairs(b, h)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := pairs[i]
		sinkMethod = h.Select(p.recv, p.m)
		if i++; i == len(pairs) {
			i = 0
		}
	}
	b.ReportMetric(float64(len(pairs)), "pairs")
}

var sinkBool bool

// BenchmarkIsSubtype measures subtype tests of every JDK class against a mix of
// classes and interfaces.
func BenchmarkIsSubtype(b *testing.B) {
	h := hierarchy.New(jdkInputs(b))
	var supers []*hierarchy.Class
	for _, name := range []string{"java/lang/Object", "java/util/Collection", "java/lang/Runnable",
		"java/util/AbstractList", "java/io/Serializable", "java/lang/Throwable", "java/util/Map"} {
		supers = append(supers, h.Class(name))
	}
	classes := h.Classes()
	i := 0
	for b.Loop() {
		sinkBool = h.IsSubtype(classes[i%len(classes)], supers[i%len(supers)])
		i++
	}
}

// BenchmarkAllSubtypes walks the subtypes of Object and of Collection.
func BenchmarkAllSubtypes(b *testing.B) {
	h := hierarchy.New(jdkInputs(b))
	obj, coll := h.Object(), h.Class("java/util/Collection")
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		h.AllSubtypes(obj, func(*hierarchy.Class) bool { n++; return true })
		h.AllSubtypes(coll, func(*hierarchy.Class) bool { n++; return true })
	}
}
