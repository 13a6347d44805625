package config_test

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/config"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

const jdk25 = "/usr/lib/jvm/temurin-25-jdk-amd64"

// jdks returns the JDKs to test against: javac's (JDK 17 on CI) and Temurin 25
// when this machine has it.
func jdks(t *testing.T) []string {
	homes := []string{javatest.JDKHome(t)}
	if _, err := os.Stat(filepath.Join(jdk25, "lib", "modules")); err == nil && homes[0] != jdk25 {
		homes = append(homes, jdk25)
	}
	return homes
}

func openCP(t testing.TB, cfg classpath.Config) *classpath.ClassPath {
	t.Helper()
	cp, err := classpath.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cp.Close() })
	return cp
}

// probe is run by the JDK under test and prints what the JVM itself says: the
// provides and uses of every system module (ModuleFinder.ofSystem), the security
// providers Security loads, and the values of the properties named in the files
// given as arguments (system properties, security properties, LogManager
// properties). Values are escaped so that each fits one line.
const probe = `
import java.lang.module.*;
import java.nio.file.*;
import java.security.*;
import java.util.*;
import java.util.logging.LogManager;

public class Probe {
    static String esc(String s) {
        return s == null ? "<null>" : s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
    }
    public static void main(String[] args) throws Exception {
        for (ModuleReference r : ModuleFinder.ofSystem().findAll()) {
            ModuleDescriptor d = r.descriptor();
            for (ModuleDescriptor.Provides p : d.provides())
                for (String w : p.providers())
                    System.out.println("provides " + d.name() + " " + p.service() + " " + w);
            for (String u : d.uses()) System.out.println("uses " + d.name() + " " + u);
            Set<String> open = new HashSet<>();
            for (ModuleDescriptor.Exports e : d.exports()) if (!e.isQualified()) open.add(e.source());
            for (ModuleDescriptor.Opens o : d.opens()) if (!o.isQualified()) open.add(o.source());
            for (String p : d.packages())
                if (!d.isOpen() && !open.contains(p)) System.out.println("internal " + p);
                else System.out.println("open " + p);
        }
        for (Provider p : Security.getProviders())
            System.out.println("security " + p.getName() + " " + p.getClass().getName());
        for (String k : Files.readAllLines(Path.of(args[0])))
            System.out.println("system " + k + "=" + esc(System.getProperty(k)));
        for (String k : Files.readAllLines(Path.of(args[1])))
            System.out.println("secprop " + k + "=" + esc(Security.getProperty(k)));
        for (String k : Files.readAllLines(Path.of(args[2])))
            System.out.println("logprop " + k + "=" + esc(LogManager.getLogManager().getProperty(k)));
    }
}
`

func esc(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`).Replace(s)
}

// runProbe runs probe with the java of home and returns its output lines by kind.
func runProbe(t *testing.T, home string, c *config.Config) map[string][]string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "Probe.java")
	write := func(name string, lines []string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("Probe.java", []string{probe})
	secKeys := c.ConfKeys(config.JavaSecurity)
	cmd := exec.Command(filepath.Join(home, "bin", "java"), src,
		write("system.txt", c.SystemPropertyKeys()), write("security.txt", secKeys),
		write("logging.txt", c.ConfKeys(config.Logging)))
	cmd.Env = append(os.Environ(), "JAVA_TOOL_OPTIONS=", "JDK_JAVA_OPTIONS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, stderr.Bytes())
	}
	got := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		kind, rest, _ := strings.Cut(sc.Text(), " ")
		got[kind] = append(got[kind], rest)
	}
	return got
}

func binary(internal string) string { return strings.ReplaceAll(internal, "/", ".") }

// TestJDKMatchesJVM compares what Read finds in a JDK with what that JDK's JVM
// reports about itself: every provides and uses of every system module, the
// security providers in order, the default system properties claimed, and every
// security and logging property of conf/.
func TestJDKMatchesJVM(t *testing.T) {
	for _, home := range jdks(t) {
		t.Run(filepath.Base(home), func(t *testing.T) {
			t.Parallel()
			cp := openCP(t, classpath.Config{JDKHome: home})
			c, warns := config.Read(cp)
			for _, w := range warns {
				t.Errorf("warning: %v", w)
			}
			jvm := runProbe(t, home, c)

			var provides, uses []string
			for _, s := range c.Services() {
				for _, p := range c.Providers(s) {
					if p.Kind != config.Provides || p.Origin != classpath.JDK {
						t.Errorf("JDK provider %+v: want a module's provides", p)
					}
					if !strings.HasPrefix(p.Source.Entry, "/"+p.Module+"/") {
						t.Errorf("provider %+v: source is not its module's descriptor", p)
					}
					provides = append(provides, p.Module+" "+binary(s)+" "+binary(p.Class))
				}
			}
			for _, s := range c.UsedServices() {
				for _, u := range c.Uses(s) {
					uses = append(uses, u.Module+" "+binary(s))
				}
			}
			compareSets(t, "provides", provides, jvm["provides"])
			compareSets(t, "uses", uses, jvm["uses"])
			// Every package with classes of every system module, as the JVM's
			// descriptors say (packages of resources only hold no class to ask
			// about).
			classes := map[string]bool{}
			for _, cl := range cp.Classes {
				if i := strings.LastIndexByte(cl.Name, '/'); i > 0 {
					classes[binary(cl.Name[:i])] = true
				}
			}
			var internal, wantInternal []string
			for kind, ps := range map[string][]string{"internal": jvm["internal"], "open": jvm["open"]} {
				for _, p := range ps {
					if !classes[p] {
						continue
					}
					if kind == "internal" {
						wantInternal = append(wantInternal, p)
					}
					if c.JDKInternal(strings.ReplaceAll(p, ".", "/")) {
						internal = append(internal, p)
					}
				}
			}
			if len(wantInternal) < 100 || len(jvm["open"]) < 100 {
				t.Errorf("the JVM names %d internal and %d open packages: the probe is broken", len(wantInternal), len(jvm["open"]))
			}
			compareSets(t, "internal packages", internal, wantInternal)
			t.Logf("%d internal packages with classes", len(wantInternal))
			t.Logf("%d providers of %d services, %d uses", len(provides), len(c.Services()), len(uses))

			var sec []string
			for _, sp := range c.SecurityProviders() {
				sec = append(sec, sp.Name+" "+binary(sp.Class))
			}
			if !slices.Equal(sec, jvm["security"]) {
				t.Errorf("security providers:\n got %q\nwant %q", sec, jvm["security"])
			}

			check := func(kind string, get func(string) (config.Value, bool)) {
				if len(jvm[kind]) == 0 {
					t.Errorf("no %s values from the JVM", kind)
				}
				for _, line := range jvm[kind] {
					k, want, _ := strings.Cut(line, "=")
					v, ok := get(k)
					if !ok || esc(v.Value) != want {
						t.Errorf("%s %s = %q (from %s), the JVM says %q", kind, k, esc(v.Value), v.Source, want)
					}
				}
			}
			check("system", c.SystemProperty)
			check("secprop", func(k string) (config.Value, bool) { return c.ConfProperty(config.JavaSecurity, k) })
			check("logprop", func(k string) (config.Value, bool) { return c.ConfProperty(config.Logging, k) })
		})
	}
}

func compareSets(t *testing.T, what string, got, want []string) {
	t.Helper()
	slices.Sort(got)
	slices.Sort(want)
	if slices.Equal(got, want) {
		return
	}
	var missing, extra []string
	for _, w := range want {
		if _, ok := slices.BinarySearch(got, w); !ok {
			missing = append(missing, w)
		}
	}
	for _, g := range got {
		if _, ok := slices.BinarySearch(want, g); !ok {
			extra = append(extra, g)
		}
	}
	t.Errorf("%s: %d found, the JVM has %d; missing %q; extra %q", what, len(got), len(want), missing, extra)
}

// TestJDK17Facts checks facts of the JDK 17 image against `java --describe-module`
// output and the conf/ files as shipped, with their sources.
func TestJDK17Facts(t *testing.T) {
	home := javatest.JDKHome(t)
	if !strings.Contains(home, "17") {
		t.Skipf("javac's JDK %s is not JDK 17", home)
	}
	cp := openCP(t, classpath.Config{JDKHome: home})
	c, _ := config.Read(cp)

	// java --describe-module jdk.zipfs:
	//   provides java.nio.file.spi.FileSystemProvider with jdk.nio.zipfs.ZipFileSystemProvider
	// (jdk.zipfs also has META-INF/services/java.nio.file.spi.FileSystemProvider in
	// the image, which ServiceLoader ignores in a named module: it adds nothing.)
	// and java --describe-module java.base:
	//   provides java.nio.file.spi.FileSystemProvider with jdk.internal.jrtfs.JrtFileSystemProvider
	ps := c.Providers("java/nio/file/spi/FileSystemProvider")
	if len(ps) != 2 || ps[0].Class != "jdk/internal/jrtfs/JrtFileSystemProvider" || ps[0].Module != "java.base" ||
		ps[1].Class != "jdk/nio/zipfs/ZipFileSystemProvider" || ps[1].Module != "jdk.zipfs" ||
		ps[1].Source.Entry != "/jdk.zipfs/module-info.class" || ps[1].Source.Path != filepath.Join(home, "lib", "modules") {
		t.Errorf("FileSystemProvider providers: %+v", ps)
	}
	// java --describe-module jdk.localedata:
	//   provides sun.util.locale.provider.LocaleDataMetaInfo with
	//     sun.util.resources.cldr.provider.CLDRLocaleDataMetaInfo sun.util.resources.provider.NonBaseLocaleDataMetaInfo
	var ld []string
	for _, p := range c.Providers("sun/util/locale/provider/LocaleDataMetaInfo") {
		if p.Module == "jdk.localedata" {
			ld = append(ld, p.Class)
		}
	}
	if want := []string{"sun/util/resources/cldr/provider/CLDRLocaleDataMetaInfo", "sun/util/resources/provider/NonBaseLocaleDataMetaInfo"}; !slices.Equal(ld, want) {
		t.Errorf("jdk.localedata LocaleDataMetaInfo providers = %q, want %q", ld, want)
	}
	// java --describe-module java.base: uses java.nio.file.spi.FileSystemProvider.
	if !slices.ContainsFunc(c.Uses("java/nio/file/spi/FileSystemProvider"), func(u config.Use) bool { return u.Module == "java.base" }) {
		t.Error("java.base uses FileSystemProvider: not found")
	}

	// conf/security/java.security of Debian's openjdk-17 says:
	//   security.provider.3=SunEC   (line 68)
	//   policy.provider=sun.security.provider.PolicyFile
	sp := c.SecurityProviders()
	if len(sp) != 12 || sp[2].Name != "SunEC" || sp[2].Class != "sun/security/ec/SunEC" || sp[2].How != config.ByName ||
		sp[0].How != config.Builtin || sp[2].Source.Path != filepath.Join(home, "conf", "security", "java.security") || sp[2].Source.Line == 0 {
		t.Errorf("security providers: %+v", sp)
	}
	for name, want := range map[string]string{"SunJCE": "com/sun/crypto/provider/SunJCE", "SunEC": "sun/security/ec/SunEC",
		"com.example.P": "com/example/P", "NoSuch": ""} {
		if got := c.ResolveSecurityProvider(name); got.Class != want {
			t.Errorf("ResolveSecurityProvider(%q) = %+v, want class %q", name, got, want)
		}
	}
	want := map[string]string{
		"login.configuration.provider": "sun/security/provider/ConfigFile",
		"policy.provider":              "sun/security/provider/PolicyFile",
		"handlers":                     "java/util/logging/ConsoleHandler",
		"java.util.logging.ConsoleHandler.formatter": "java/util/logging/SimpleFormatter",
		"java.util.logging.FileHandler.formatter":    "java/util/logging/XMLFormatter",
	}
	for _, cn := range c.ClassNames() {
		if w, ok := want[cn.Key]; ok {
			if cn.Class != w {
				t.Errorf("%s names %s, want %s", cn.Key, cn.Class, w)
			}
			delete(want, cn.Key)
		}
	}
	if len(want) > 0 {
		t.Errorf("class names not found: %v", want)
	}
	if v, ok := c.ConfProperty(config.Net, "java.net.useSystemProxies"); !ok || v.Value != "false" {
		t.Errorf("net.properties java.net.useSystemProxies = %q, %v", v.Value, ok)
	}
}

// BenchmarkReadJDK reads the configuration of the JDK 17 image (budget: a few tens
// of milliseconds; it is about 3 ms on 2 cores).
func BenchmarkReadJDK(b *testing.B) {
	home := javatest.JDKHome(b)
	cp := openCP(b, classpath.Config{JDKHome: home})
	for b.Loop() {
		if _, ws := config.Read(cp); len(ws) != 0 {
			b.Fatal(ws)
		}
	}
}
