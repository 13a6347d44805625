package e2e

import (
	"archive/zip"
	"bytes"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// targets are the VS Code targets `npm run package` writes a .vsix for
// (vscode-extension/scripts/package.mjs), with the binary each must hold.
var targets = []struct {
	name  string // VS Code's, also the folder under bin/
	exe   string
	check func([]byte) error // the binary runs on the target
}{
	{"linux-x64", "jcg-lsp", elfFor(elf.EM_X86_64)},
	{"linux-arm64", "jcg-lsp", elfFor(elf.EM_AARCH64)},
	{"darwin-x64", "jcg-lsp", machoFor(macho.CpuAmd64)},
	{"darwin-arm64", "jcg-lsp", machoFor(macho.CpuArm64)},
	{"win32-x64", "jcg-lsp.exe", peFor(pe.IMAGE_FILE_MACHINE_AMD64)},
}

// elfFor accepts a static Linux executable for the machine: static, so that it runs
// on any distribution (glibc or musl) without cgo's loader.
func elfFor(m elf.Machine) func([]byte) error {
	return func(b []byte) error {
		f, err := elf.NewFile(bytes.NewReader(b))
		if err != nil {
			return fmt.Errorf("not an ELF file: %w", err)
		}
		if f.Machine != m || f.Type != elf.ET_EXEC {
			return fmt.Errorf("ELF %v %v, want an executable for %v", f.Type, f.Machine, m)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				return fmt.Errorf("ELF for %v is dynamically linked (built with cgo?)", m)
			}
		}
		return nil
	}
}

func machoFor(c macho.Cpu) func([]byte) error {
	return func(b []byte) error {
		f, err := macho.NewFile(bytes.NewReader(b))
		if err != nil {
			return fmt.Errorf("not a Mach-O file: %w", err)
		}
		if f.Cpu != c || f.Type != macho.TypeExec {
			return fmt.Errorf("Mach-O %v %v, want an executable for %v", f.Type, f.Cpu, c)
		}
		return nil
	}
}

func peFor(machine uint16) func([]byte) error {
	return func(b []byte) error {
		f, err := pe.NewFile(bytes.NewReader(b))
		if err != nil {
			return fmt.Errorf("not a PE file: %w", err)
		}
		oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
		if f.Machine != machine || !ok || oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_CUI {
			return fmt.Errorf("PE machine %#x, want a 64-bit console executable for %#x", f.Machine, machine)
		}
		return nil
	}
}

// checkVSIX says what is wrong with the package of one target: it must declare the
// target, stay within the size budget and hold exactly one server, the target's, at
// bin/<target>/ where the extension looks for it (src/serverPath.ts).
func checkVSIX(path string, target string) error {
	i := -1
	for j, t := range targets {
		if t.name == target {
			i = j
		}
	}
	if i < 0 {
		return fmt.Errorf("unknown target %s", target)
	}
	t := targets[i]
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.Size() > maxVSIXBytes {
		return fmt.Errorf("%s is %d bytes, over the budget of %d", path, fi.Size(), maxVSIXBytes)
	}
	z, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer z.Close()
	var bins []*zip.File
	manifest := ""
	for _, f := range z.File {
		switch {
		case strings.HasPrefix(f.Name, "extension/bin/") && !strings.HasSuffix(f.Name, "/"):
			bins = append(bins, f)
		case f.Name == "extension.vsixmanifest":
			b, err := readZip(f)
			if err != nil {
				return err
			}
			manifest = string(b)
		}
	}
	if want := fmt.Sprintf(`TargetPlatform="%s"`, t.name); !strings.Contains(manifest, want) {
		return fmt.Errorf("%s: the manifest does not declare %s", path, want)
	}
	want := "extension/bin/" + t.name + "/" + t.exe
	if len(bins) != 1 || bins[0].Name != want {
		var names []string
		for _, b := range bins {
			names = append(names, b.Name)
		}
		return fmt.Errorf("%s holds %v, want only %s", path, names, want)
	}
	b, err := readZip(bins[0])
	if err != nil {
		return err
	}
	if err := t.check(b); err != nil {
		return fmt.Errorf("%s: %s: %w", path, want, err)
	}
	return nil
}

func readZip(f *zip.File) ([]byte, error) {
	r, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	defer r.Close()
	return io.ReadAll(r)
}

// TestCheckVSIX checks checkVSIX on hand-made packages holding this test's own
// binary (a Linux executable): the right one passes, a wrong binary, a second
// binary and a missing target declaration fail.
func TestCheckVSIX(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(exe))
	if err != nil {
		t.Skipf("the test binary is not an ELF file (%v): checkVSIX is exercised on Linux", err)
	}
	target := map[elf.Machine]string{elf.EM_X86_64: "linux-x64", elf.EM_AARCH64: "linux-arm64"}[f.Machine]
	if target == "" {
		t.Skipf("no VS Code target for %v", f.Machine)
	}
	write := func(declared string, files map[string][]byte) string {
		var buf bytes.Buffer
		w := zip.NewWriter(&buf)
		files["extension.vsixmanifest"] = fmt.Appendf(nil, `<Identity Id="jcg-lsp" TargetPlatform="%s"/>`, declared)
		for name, data := range files {
			fw, err := w.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := fw.Write(data); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "x.vsix")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	own := "extension/bin/" + target + "/jcg-lsp"
	if err := checkVSIX(write(target, map[string][]byte{own: exe}), target); err != nil {
		t.Errorf("the right package: %v", err)
	}
	for _, c := range []struct {
		name, declared, target string
		files                  map[string][]byte
		want                   string
	}{
		{"Linux binary as darwin-arm64", "darwin-arm64", "darwin-arm64", map[string][]byte{"extension/bin/darwin-arm64/jcg-lsp": exe}, "not a Mach-O file"},
		{"Linux binary as win32-x64", "win32-x64", "win32-x64", map[string][]byte{"extension/bin/win32-x64/jcg-lsp.exe": exe}, "not a PE file"},
		{"two servers", target, target, map[string][]byte{own: exe, "extension/bin/darwin-x64/jcg-lsp": exe}, "want only"},
		{"server elsewhere", target, target, map[string][]byte{"extension/bin/jcg-lsp": exe}, "want only"},
		{"undeclared target", "linux-armhf", target, map[string][]byte{own: exe}, "does not declare"},
	} {
		err := checkVSIX(write(c.declared, c.files), c.target)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}
