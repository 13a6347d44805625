package bytecode

import (
	"testing"
)

func TestSwitchPadding(t *testing.T) {
	// nop; tableswitch at pc 1: padding to pc 4, default +20, low 1, high 2, targets +10, +15
	code := []byte{byte(Nop), byte(Tableswitch), 0, 0,
		0, 0, 0, 20, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 10, 0, 0, 0, 15,
		byte(Return)}
	in, err := Decode(code, 1)
	if err != nil {
		t.Fatal(err)
	}
	if in.Len != 23 {
		t.Errorf("tableswitch length = %d, want 23", in.Len)
	}
	var got []int
	in.SwitchTargets(func(key int32, target int, def bool) { got = append(got, int(key), target) })
	want := []int{0, 21, 1, 11, 2, 16}
	if len(got) != len(want) {
		t.Fatalf("targets = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("targets = %v, want %v", got, want)
		}
	}
	// lookupswitch at pc 0: padding to pc 4, default, npairs 0.
	look := []byte{byte(Lookupswitch), 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0}
	if in, err := Decode(look, 0); err != nil || in.Len != 12 {
		t.Errorf("lookupswitch: len %d err %v, want 12", in.Len, err)
	}
}

func TestWide(t *testing.T) {
	code := []byte{byte(Wide), byte(Iinc), 1, 0x2c, 0xff, 0x38, byte(Wide), byte(Aload), 1, 0}
	in, err := Decode(code, 0)
	if err != nil || in.Op != Iinc || !in.Wide || in.Index != 300 || in.Value != -200 || in.Len != 6 {
		t.Errorf("wide iinc = %+v, %v", in, err)
	}
	in, err = Decode(code, 6)
	if err != nil || in.Op != Aload || in.Index != 256 || in.Len != 4 {
		t.Errorf("wide aload = %+v, %v", in, err)
	}
	if _, err := Decode([]byte{byte(Wide), byte(Nop)}, 0); err == nil {
		t.Error("wide nop accepted")
	}
}

func TestHostile(t *testing.T) {
	for name, code := range map[string][]byte{
		"truncated sipush":      {byte(Sipush), 1},
		"huge tableswitch":      {byte(Tableswitch), 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff},
		"negative lookupswitch": {byte(Lookupswitch), 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff},
		"undefined opcode":      {0xcb},
		"truncated wide":        {byte(Wide)},
	} {
		if err := Walk(code, func(Instr) error { return nil }); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{byte(Tableswitch), 0, 0, 0, 0, 0, 0, 20, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 10})
	f.Add([]byte{byte(Wide), byte(Iinc), 1, 0, 0, 1, byte(Invokeinterface), 0, 1, 1, 0})
	f.Fuzz(func(t *testing.T, code []byte) {
		Walk(code, func(in Instr) error {
			in.SwitchTargets(func(int32, int, bool) {})
			if in.Len <= 0 || in.PC+in.Len > len(code) {
				t.Fatalf("instruction %+v outside the code", in)
			}
			return nil
		})
	})
}
