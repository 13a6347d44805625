package classpath

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeJDK makes a directory that checkJDK takes for a JDK of a release: a runtime
// image (empty: finding a JDK does not read it) and a release file.
func fakeJDK(t *testing.T, home, version string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(home, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "lib", "modules"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "release"), []byte("JAVA_VERSION=\""+version+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return home
}

// command puts an executable file at p (a launcher: its content does not matter).
func command(t *testing.T, p string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// TestFindJDKWindows: the java on PATH is java.exe, in ;-separated directories
// that may be quoted; a java without .exe is not a Windows command.
func TestFindJDKWindows(t *testing.T) {
	jdk := fakeJDK(t, filepath.Join(t.TempDir(), "jdk-21"), "21.0.4")
	command(t, filepath.Join(jdk, "bin", "java.exe"))
	other := fakeJDK(t, filepath.Join(t.TempDir(), "jdk-17"), "17.0.2")
	command(t, filepath.Join(other, "bin", "java"))
	path := filepath.Join(other, "bin") + `;"` + filepath.Join(jdk, "bin") + `"`
	l := jdkLookup{goos: "windows", getenv: env(map[string]string{"PATH": path})}
	if home, _, err := l.find(""); home != jdk || err != nil {
		t.Errorf("PATH=%s: %q, %v; want %s", path, home, err, jdk)
	}
	l.getenv = env(map[string]string{"PATH": filepath.Join(other, "bin")})
	if home, _, err := l.find(""); err == nil || !strings.Contains(err.Error(), "no java.exe on PATH") {
		t.Errorf("only a java without .exe on PATH: %q, %v", home, err)
	}
}

// TestFindJDKMacOS: JAVA_HOME may name a JDK bundle or its Contents/Home; without
// it, /usr/bin/java is a stub that is no JDK's, and the newest JDK installed in
// /Library/Java/JavaVirtualMachines (or the user's) is the one.
func TestFindJDKMacOS(t *testing.T) {
	vms := filepath.Join(t.TempDir(), "Library", "Java", "JavaVirtualMachines")
	jdk17 := fakeJDK(t, filepath.Join(vms, "zulu-17.jdk", "Contents", "Home"), "17.0.12")
	jdk21 := fakeJDK(t, filepath.Join(vms, "temurin-21.jdk", "Contents", "Home"), "21.0.4")
	userVMs := filepath.Join(t.TempDir(), "Library", "Java", "JavaVirtualMachines")
	jdk8 := fakeJDK(t, filepath.Join(userVMs, "jdk1.8.0_392.jdk", "Contents", "Home"), "1.8.0_392")
	usrBin := filepath.Dir(command(t, filepath.Join(t.TempDir(), "usr", "bin", "java")))

	for _, jh := range []string{jdk17, filepath.Join(vms, "zulu-17.jdk")} {
		l := jdkLookup{goos: "darwin", getenv: env(map[string]string{"JAVA_HOME": jh, "PATH": usrBin}), vmDirs: []string{vms, userVMs}}
		if home, skipped, err := l.find(""); home != jdk17 || err != nil || len(skipped) > 0 {
			t.Errorf("JAVA_HOME=%s: %q, %v, %v; want %s", jh, home, skipped, err, jdk17)
		}
	}
	l := jdkLookup{goos: "darwin", getenv: env(map[string]string{"PATH": usrBin}), vmDirs: []string{vms, userVMs}}
	if home, _, err := l.find(""); home != jdk21 || err != nil {
		t.Errorf("the stub on PATH: %q, %v; want the newest, %s", home, err, jdk21)
	}
	if home, _, err := l.find(filepath.Join(userVMs, "jdk1.8.0_392.jdk")); home != jdk8 || err != nil {
		t.Errorf("a configured bundle: %q, %v; want %s", home, err, jdk8)
	}
	l.vmDirs = []string{filepath.Join(t.TempDir(), "none")}
	if _, _, err := l.find(""); err == nil || !strings.Contains(err.Error(), "no JDK in") {
		t.Errorf("no JDK installed: %v", err)
	}
	// On Linux the stub's directory is the end of the search.
	l = jdkLookup{goos: "linux", getenv: env(map[string]string{"PATH": usrBin})}
	if home, _, err := l.find(""); err == nil || !strings.Contains(err.Error(), "not a JDK") {
		t.Errorf("Linux with a java outside a JDK: %q, %v", home, err)
	}
}
