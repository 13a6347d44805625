package analysis

import (
	"slices"
	"testing"
)

func TestSplitDesc(t *testing.T) {
	for _, tc := range []struct {
		desc   string
		params []string
		ret    string
		ok     bool
	}{
		{"()V", nil, "V", true},
		{"(I[JLjava/lang/String;[[Lx/Y;)Ljava/lang/Object;", []string{"I", "[J", "Ljava/lang/String;", "[[Lx/Y;"}, "Ljava/lang/Object;", true},
		{"(", nil, "", false},
		{"(Ljava/lang/String)V", nil, "", false},
		{"(Q)V", nil, "", false},
		{"(I)", nil, "", false},
		{"V", nil, "", false},
	} {
		ps, ret, ok := splitDesc(tc.desc)
		if ok != tc.ok || (ok && (ret != tc.ret || !slices.Equal(ps, tc.params))) {
			t.Errorf("splitDesc(%q) = %q, %q, %v; want %q, %q, %v", tc.desc, ps, ret, ok, tc.params, tc.ret, tc.ok)
		}
	}
}

func TestMethodMatcher(t *testing.T) {
	exact := methodMatcher{ret: "V", params: []string{"I"}, count: true}
	if d, ok := exact.exact(); !ok || d != "(I)V" {
		t.Errorf("exact() = %q, %v", d, ok)
	}
	if !exact.matches("(I)V") || exact.matches("(II)V") || exact.matches("(I)I") {
		t.Error("exact matcher")
	}
	// methodType(String.class, int.class, Class...): the first parameter and the
	// return type are known, the count is not.
	open := methodMatcher{ret: "Ljava/lang/String;", params: []string{"I"}}
	if _, ok := open.exact(); ok {
		t.Error("open matcher is not exact")
	}
	if !open.matches("(I)Ljava/lang/String;") || !open.matches("(IJ)Ljava/lang/String;") || open.matches("()Ljava/lang/String;") || open.matches("(J)Ljava/lang/String;") {
		t.Error("open matcher")
	}
	var anything methodMatcher
	if !anything.any() || !anything.matches("(JJ)V") || anything.String() != "(...)?" {
		t.Errorf("any matcher: %s", anything)
	}
	ctor := methodMatcher{ret: "V", params: []string{"Ljava/lang/String;"}, count: true}
	if !ctor.matchesConstructor("(Ljava/lang/String;)V") || ctor.matchesConstructor("()V") {
		t.Error("constructor matcher")
	}
	if s := open.String(); s != "(int, ...)java.lang.String" {
		t.Errorf("String() = %q", s)
	}
}

func TestTypeName(t *testing.T) {
	for desc, want := range map[string]string{
		"I": "int", "[[J": "long[][]", "Ljava/lang/String;": "java.lang.String",
		"[Lp/Outer$In;": "p.Outer$In[]", "V": "void",
	} {
		if got := typeName(desc); got != want {
			t.Errorf("typeName(%q) = %q, want %q", desc, got, want)
		}
	}
}
