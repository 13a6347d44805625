package analysis

import "testing"

// TestCapturedParams reads testdata/java/cg/captures: javac's static lambda body in
// main captures x and y (two parameters bound at capture), the instance body in
// instance() captures this, x and y (three: its receiver first). A public method
// binds none whatever its method references capture, since code outside its nest
// may name it too; neither does a private method no lambda implements. Of the
// private methods refs() refers to, bound binds its receiver (this::bound), tag
// none: Main::tag takes its receiver from the call, though this::tag binds it.
func TestCapturedParams(t *testing.T) {
	ix := programsIndex(t, "cg/captures")
	h := ix.Hierarchy()
	a := New(ix)
	main := h.Class("captures/Main")
	lambdas := map[string]int{}
	for _, m := range main.Methods {
		if m.IsPrivate() {
			lambdas[m.Name] = a.capturedParams(m)
		}
	}
	want := map[string]int{"lambda$main$0": 2, "lambda$instance$1": 3, "bound": 1, "tag": 0}
	for name, n := range want {
		if got, ok := lambdas[name]; !ok || got != n {
			t.Errorf("%s binds %d parameters (found: %v), want %d; all private methods: %v", name, got, ok, n, lambdas)
		}
	}
	if describe := h.Class("captures/Main$A").Method("describe", "()Ljava/lang/String;"); a.capturedParams(describe) != 0 {
		t.Errorf("A.describe, public, binds %d parameters, want 0", a.capturedParams(describe))
	}
}
