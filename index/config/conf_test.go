package config_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/config"
)

// fakeJDK writes a JDK home with the given files (paths relative to the home).
func fakeJDK(t *testing.T, files map[string]string) string {
	home := t.TempDir()
	for name, text := range files {
		writeFile(t, filepath.Join(home, filepath.FromSlash(name)), text)
	}
	return home
}

// TestHostileConf reads a java.security that exercises every rule of the provider
// list and of includes, and every kind of problem.
func TestHostileConf(t *testing.T) {
	home := fakeJDK(t, map[string]string{
		"release": "JAVA_VERSION=\"25\"\nOS_NAME=\"Windows\"\nOS_ARCH=\"x86_64\"\n",
		"conf/security/java.security": `# comment
security.provider.1=SUN
security.provider.2 = com.example.MyProvider  arg1 arg2
security.provider.3=SUN
security.provider.4=NoSuchName
security.provider.5=SunPKCS11 ${java.home}/conf/security/nss.cfg
security.provider.6=
security.provider.7=SunJCE
bad\u12=x
include loop.security
include ${user.home}/x.security
include missing.security
include ${java.home}/conf/security/extra.security
login.configuration.provider=not a class
policy.provider=a.b.\
    Policy
`,
		"conf/security/loop.security":  "include java.security\nfrom.loop=1\n",
		"conf/security/extra.security": "ssl.SocketFactory.provider=x.Y\nsecurity.provider.1=SunRsaSign\n",
		"conf/logging.properties": "handlers= a.B, c.D\n.handlers=x.Y\nmy.logger.handlers = z.W\tz.V\nconfig=cfg.C\n" +
			"com.foo.H.formatter=f.F\ncom.foo.H.filter=f.G\njava.util.logging.MemoryHandler.target=t.T\n.level=INFO\n",
		"conf/sound.properties":         "javax.sound.midi.Sequencer=com.x.P#Name\njavax.sound.sampled.Clip=#OnlyName\n",
		"conf/swing.properties":         "swing.defaultlaf=l.F\nswing.installedlaf.x.class=l.X\nswing.installedlaf.x.name=X\n",
		"conf/accessibility.properties": "assistive_technologies=a.T1,a.T2\n",
		"conf/jaxp.properties": "javax.xml.parsers.SAXParserFactory=j.S\n" +
			"javax.xml.xpath.XPathFactory\\:http\\://java.sun.com/jaxp/xpath/dom=j.X\njdk.xml.dtd.support=allow\n",
	})
	c, warns := config.Read(&classpath.ClassPath{JDKHome: home, Release: 25})

	var sp []string
	for _, p := range c.SecurityProviders() {
		sp = append(sp, strings.Join([]string{p.Name, p.Arg, p.Class, p.How.String()}, "|"))
	}
	want := []string{
		// extra.security, included after the list, replaced provider 1.
		"SunRsaSign||sun/security/rsa/SunRsaSign|built-in",
		"com.example.MyProvider|arg1 arg2|com/example/MyProvider|legacy class name",
		"SUN||sun/security/provider/Sun|built-in", // no longer a repeat of 1
		"NoSuchName|||by name",
		"SunPKCS11|${java.home}/conf/security/nss.cfg|sun/security/pkcs11/SunPKCS11|by name",
		// 6 is empty: 7 is never read.
	}
	if !slices.Equal(sp, want) {
		t.Errorf("security providers:\n got %q\nwant %q", sp, want)
	}
	if v, ok := c.ConfProperty(config.JavaSecurity, "from.loop"); !ok || v.Source.Path != filepath.Join(home, "conf/security/loop.security") {
		t.Errorf("from.loop = %+v, %v", v, ok)
	}
	if v, _ := c.ConfProperty(config.JavaSecurity, "policy.provider"); v.Value != "a.b.Policy" || v.Source.Line != 15 {
		t.Errorf("continued policy.provider = %+v", v)
	}

	var got []string
	for _, w := range warns {
		got = append(got, w.Error())
	}
	sec := filepath.Join(home, "conf/security/java.security")
	for _, want := range []string{
		sec + ":9: malformed \\uxxxx encoding",
		filepath.Join(home, "conf/security/loop.security") + ":1: include of " + sec + " is recursive",
		sec + ":11: \"${user.home}/x.security\" depends on system properties without a known default",
		filepath.Join(home, "conf/security/missing.security") + ": stat",
		sec + ":7: empty security.provider.6 ends the provider list",
		sec + ":14: login.configuration.provider: \"not a class\" is not a class name",
	} {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, want) }) {
			t.Errorf("no warning containing %q in\n%s", want, strings.Join(got, "\n"))
		}
	}

	var names []string
	for _, cn := range c.ClassNames() {
		names = append(names, cn.Key+"="+cn.Class)
	}
	for _, want := range []string{
		"security.provider.2=com/example/MyProvider", "policy.provider=a/b/Policy", "ssl.SocketFactory.provider=x/Y",
		"handlers=a/B", "handlers=c/D", ".handlers=x/Y", "my.logger.handlers=z/W", "my.logger.handlers=z/V", "config=cfg/C",
		"com.foo.H.formatter=f/F", "com.foo.H.filter=f/G", "java.util.logging.MemoryHandler.target=t/T",
		"javax.sound.midi.Sequencer=com/x/P", "swing.defaultlaf=l/F", "swing.installedlaf.x.class=l/X",
		"assistive_technologies=a/T1", "assistive_technologies=a/T2",
		"javax.xml.parsers.SAXParserFactory=j/S", "javax.xml.xpath.XPathFactory:http://java.sun.com/jaxp/xpath/dom=j/X",
	} {
		if !slices.Contains(names, want) {
			t.Errorf("class name %s not found in %q", want, names)
		}
	}
	if slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, "Clip") || strings.Contains(n, ".level") }) {
		t.Errorf("class names include non-classes: %q", names)
	}

	// The release file says Windows.
	for k, v := range map[string]string{"file.separator": `\`, "path.separator": ";", "line.separator": "\r\n", "os.arch": "amd64", "java.home": home} {
		if got, ok := c.SystemProperty(k); !ok || got.Value != v {
			t.Errorf("%s = %q, %v; want %q", k, got.Value, ok, v)
		}
	}
	if _, ok := c.SystemProperty("os.name"); ok {
		t.Error("os.name claimed for Windows, whose name depends on the version")
	}
}

// TestIncludeBeforeJDK24: "include" is an ordinary property before JDK 24.
func TestIncludeBeforeJDK24(t *testing.T) {
	home := fakeJDK(t, map[string]string{"conf/security/java.security": "include other.security\n"})
	c, warns := config.Read(&classpath.ClassPath{JDKHome: home, Release: 17})
	if v, ok := c.ConfProperty(config.JavaSecurity, "include"); !ok || v.Value != "other.security" || len(warns) != 0 {
		t.Errorf("include = %+v, %v; warnings %v", v, ok, warns)
	}
}

// TestJDK8Layout: JDK 8 keeps java.security in jre/lib/security and lists
// providers by class name.
func TestJDK8Layout(t *testing.T) {
	home := fakeJDK(t, map[string]string{
		"jre/lib/security/java.security": "security.provider.1=sun.security.provider.Sun\n",
		"jre/lib/logging.properties":     "handlers=java.util.logging.ConsoleHandler\n",
	})
	c, warns := config.Read(&classpath.ClassPath{JDKHome: home, Release: 8})
	sp := c.SecurityProviders()
	if len(warns) != 0 || len(sp) != 1 || sp[0].Class != "sun/security/provider/Sun" || sp[0].How != config.Legacy {
		t.Errorf("providers %+v, warnings %v", sp, warns)
	}
	if c.ConfPath(config.Logging) != filepath.Join(home, "jre/lib/logging.properties") {
		t.Errorf("logging.properties read from %q", c.ConfPath(config.Logging))
	}
}
