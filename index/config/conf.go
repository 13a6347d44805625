package config

import (
	"cmp"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

// maxConf bounds a conf file; java.security, the largest, is about 60 KB.
const maxConf = 4 << 20

// maxIncludeDepth bounds java.security's include chains (the JDK refuses cycles,
// which this also stops), and maxIncludes the files one conf file may include in
// all, so that a diamond of includes cannot multiply the work.
const (
	maxIncludeDepth = 16
	maxIncludes     = 100
)

// includeRelease is the first release whose java.security supports the include
// directive (JDK-8319332); before it "include" is an ordinary property.
const includeRelease = 24

// confDir is where the JDK keeps the files of conf/: conf/ since JDK 9, lib/ (or
// jre/lib/ in a JDK 8 with a JRE directory) before.
func confDir(home string) string {
	for _, d := range []string{"conf", filepath.Join("jre", "lib"), "lib"} {
		p := filepath.Join(home, d)
		if _, err := os.Stat(filepath.Join(p, filepath.FromSlash(JavaSecurity))); err == nil {
			return p
		}
	}
	return filepath.Join(home, "conf")
}

func (r *reader) readConf() {
	dir := confDir(r.c.jdkHome)
	for _, name := range confFiles {
		path := filepath.Join(dir, filepath.FromSlash(name))
		props := map[string]Value{}
		if _, err := os.Stat(path); err != nil {
			continue // the files are optional: a jlinked image may have none
		}
		r.c.confPath[name] = path
		budget := maxIncludes
		r.loadProps(path, name == JavaSecurity && r.c.release >= includeRelease, props, map[string]bool{}, 0, &budget)
		r.c.conf[name] = props
	}
	r.securityProviders()
	r.confClassNames()
}

// loadProps loads a properties file into props as Properties.load would, following
// java.security includes when include is set.
func (r *reader) loadProps(path string, include bool, props map[string]Value, active map[string]bool, depth int, budget *int) {
	data, err := classpath.ReadRegularFile(path, maxConf)
	if err != nil {
		r.warn(Source{Path: path}, "%v", err)
		return
	}
	list, problems := parseProperties(data)
	for _, p := range problems {
		r.warn(Source{Path: path, Line: p.line}, "%s", p.msg)
	}
	active[path] = true
	defer delete(active, path)
	for _, p := range list {
		src := Source{Path: path, Line: p.line}
		if !include || p.key != "include" {
			props[p.key] = Value{Value: p.value, Source: src}
			continue
		}
		target, ok := r.expand(p.value, src)
		if !ok {
			continue
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		switch {
		case active[target]:
			r.warn(src, "include of %s is recursive (the JDK fails to initialise java.security.Security)", target)
		case depth >= maxIncludeDepth:
			r.warn(src, "includes nested over %d deep", maxIncludeDepth)
		case *budget <= 0:
			r.warn(src, "over %d includes; not read", maxIncludes)
		default:
			*budget--
			r.loadProps(target, include, props, active, depth+1, budget)
		}
	}
}

var propRef = regexp.MustCompile(`\$\{([^}]*)\}`)

// expand replaces ${key} by the default of a system property. A property without
// a known default depends on the environment; ok is false then, with a warning.
func (r *reader) expand(s string, src Source) (string, bool) {
	ok := true
	out := propRef.ReplaceAllStringFunc(s, func(m string) string {
		key := m[2 : len(m)-1]
		if v, found := r.c.system[key]; found {
			return v.Value
		}
		ok = false
		return m
	})
	if !ok {
		r.warn(src, "%q depends on system properties without a known default", s)
	}
	return out, ok
}

// SecurityProvider is a security.provider.N entry of java.security.
type SecurityProvider struct {
	N    int    // the N of security.provider.N
	Name string // the provider name or class name as written, e.g. "SUN", "SunPKCS11"
	Arg  string // the configuration argument after the name, "" when none
	// Class is the internal name of the provider class loaded, or "" when the
	// name is neither a known provider name nor a class name.
	Class string
	How   ProviderLoad
	// Evidence says why Name means Class.
	Evidence string
	Source   Source
}

// ProviderLoad says how sun.security.jca.ProviderConfig gets a provider.
type ProviderLoad uint8

const (
	// Builtin providers are created with `new` by ProviderConfig.getProvider for
	// a fixed set of names; nothing else is loaded.
	Builtin ProviderLoad = iota
	// ByName providers are found by ProviderLoader.load, which iterates
	// ServiceLoader.load(java.security.Provider) and instantiates every provider
	// until one's getName() equals Name: every provider of
	// java/security/Provider (Config.Providers) may be instantiated on the way.
	ByName
	// Legacy providers are class names: after the same ServiceLoader iteration
	// finds no provider of that name, the class is loaded through the system
	// class loader and instantiated by Class.newInstance.
	Legacy
)

func (h ProviderLoad) String() string {
	switch h {
	case Builtin:
		return "built-in"
	case ByName:
		return "by name"
	}
	return "legacy class name"
}

// builtinProviders are the names ProviderConfig.getProvider creates directly
// (JDK 17 and 25 src.zip, java.base/sun/security/jca/ProviderConfig.java), with the
// first release that has them there: SunEC moved into java.base in JDK 22.
var builtinProviders = []struct {
	names []string
	class string
	since int
}{
	{[]string{"SUN", "sun.security.provider.Sun"}, "sun/security/provider/Sun", 9},
	{[]string{"SunRsaSign", "sun.security.rsa.SunRsaSign"}, "sun/security/rsa/SunRsaSign", 9},
	{[]string{"SunJCE", "com.sun.crypto.provider.SunJCE"}, "com/sun/crypto/provider/SunJCE", 9},
	{[]string{"SunJSSE"}, "sun/security/ssl/SunJSSE", 9},
	{[]string{"SunEC"}, "sun/security/ec/SunEC", 22},
	// Loaded by Class.forName, and only present on macOS.
	{[]string{"Apple", "apple.security.AppleProvider"}, "apple/security/AppleProvider", 9},
}

// providerNames maps the names that the JDK's own providers give themselves
// (Provider.getName, set by their constructors) to their classes, for names
// ProviderConfig looks up through ServiceLoader. Evidence: Security.getProviders()
// printing getName() and getClass() on JDK 17.0.19 (Debian) and 25.0.3 (Temurin),
// which TestSecurityProvidersMatchJVM repeats; SunMSCAPI is Windows-only
// (jdk.crypto.mscapi).
var providerNames = map[string]string{
	"SunEC":     "sun/security/ec/SunEC",
	"SunJGSS":   "sun/security/jgss/SunProvider",
	"SunSASL":   "com/sun/security/sasl/Provider",
	"XMLDSig":   "org/jcp/xml/dsig/internal/dom/XMLDSigRI",
	"SunPCSC":   "sun/security/smartcardio/SunPCSC",
	"JdkLDAP":   "sun/security/provider/certpath/ldap/JdkLDAP",
	"JdkSASL":   "com/sun/security/sasl/gsskerb/JdkSASL",
	"SunPKCS11": "sun/security/pkcs11/SunPKCS11",
	"SunMSCAPI": "sun/security/mscapi/SunMSCAPI",
}

// securityProviders reads security.provider.1, 2, ... as
// sun.security.jca.ProviderList does: stop at the first missing or empty entry,
// split the name from an argument at the first space, drop repeated entries.
func (r *reader) securityProviders() {
	props := r.c.conf[JavaSecurity]
	declared := declaredSecurityProviders(r.c)
	seen := map[[2]string]bool{}
	for n := 1; ; n++ {
		key := "security.provider." + strconv.Itoa(n)
		v, ok := props[key]
		entry := strings.TrimSpace(v.Value)
		if !ok || entry == "" {
			if ok {
				r.warn(v.Source, "empty %s ends the provider list (the JDK prints \"invalid entry\")", key)
			}
			break
		}
		name, arg, _ := strings.Cut(entry, " ")
		arg = strings.TrimSpace(arg)
		if seen[[2]string{name, arg}] {
			continue
		}
		seen[[2]string{name, arg}] = true
		sp := SecurityProvider{N: n, Name: name, Arg: arg, Source: v.Source}
		r.resolveProvider(&sp, declared)
		r.c.security = append(r.c.security, sp)
	}
}

// ResolveSecurityProvider says which class a provider name or class name means the
// way a security.provider.N entry's name is resolved (see SecurityProvider), e.g.
// for the provider argument of getInstance(algorithm, "SunJCE"). N and Source are
// zero; Class is "" for an unknown name that is no class name.
func (c *Config) ResolveSecurityProvider(name string) SecurityProvider {
	r := &reader{c: c}
	sp := SecurityProvider{Name: name}
	r.resolveProvider(&sp, declaredSecurityProviders(c))
	return sp
}

func declaredSecurityProviders(c *Config) map[string]bool {
	declared := map[string]bool{}
	for _, p := range c.providers["java/security/Provider"] {
		if p.Kind == Provides {
			declared[p.Class] = true
		}
	}
	return declared
}

func (r *reader) resolveProvider(sp *SecurityProvider, declared map[string]bool) {
	if r.c.release >= 9 {
		for _, b := range builtinProviders {
			for _, n := range b.names {
				if n == sp.Name && r.c.release >= b.since {
					sp.Class, sp.How = b.class, Builtin
					sp.Evidence = "created directly by sun.security.jca.ProviderConfig.getProvider for " + strconv.Quote(n)
					return
				}
			}
		}
		if cls, ok := providerNames[sp.Name]; ok {
			sp.Class, sp.How = cls, ByName
			sp.Evidence = "the provider named " + strconv.Quote(sp.Name) + " is " + strings.ReplaceAll(cls, "/", ".") +
				" (Provider.getName of the JDK's providers)"
			if !declared[cls] {
				sp.Evidence += "; no module of this class path provides it as a java.security.Provider"
			}
			return
		}
	}
	if legalBinaryName(sp.Name) && strings.Contains(sp.Name, ".") {
		sp.Class, sp.How = strings.ReplaceAll(sp.Name, ".", "/"), Legacy
		sp.Evidence = "a class name, loaded by ProviderLoader.legacyLoad"
		return
	}
	sp.How = ByName
	sp.Evidence = "no known provider has this name; any provider of java.security.Provider may be it"
}

// classKeys are the properties of conf files whose values name classes, with what
// the JDK does with them. Keys starting with '.' match any key with that suffix,
// keys ending in ':' any key with that prefix.
var classKeys = map[string][]struct {
	key  string
	list bool   // a list separated by commas or white space
	why  string // what the JDK does
}{
	JavaSecurity: {
		{"login.configuration.provider", false, "javax.security.auth.login.Configuration.getConfiguration instantiates it"},
		{"policy.provider", false, "java.security.Policy.getPolicy instantiates it (JDK 17; removed with the SecurityManager)"},
		{"ssl.SocketFactory.provider", false, "javax.net.ssl.SSLSocketFactory.getDefault instantiates it"},
		{"ssl.ServerSocketFactory.provider", false, "javax.net.ssl.SSLServerSocketFactory.getDefault instantiates it"},
	},
	Logging: {
		{"handlers", true, "LogManager instantiates the root logger's handlers"},
		{".handlers", true, "LogManager instantiates the handlers of the logger"},
		{"config", true, "LogManager instantiates the config classes"},
		{".formatter", false, "Handler.configure instantiates the handler's formatter"},
		{".filter", false, "Handler.configure instantiates the handler's filter"},
		{".target", false, "MemoryHandler instantiates its target handler"},
	},
	Sound: {
		{"javax.sound.midi.Receiver", false, "MidiSystem's default provider (provider#name)"},
		{"javax.sound.midi.Sequencer", false, "MidiSystem's default provider (provider#name)"},
		{"javax.sound.midi.Synthesizer", false, "MidiSystem's default provider (provider#name)"},
		{"javax.sound.midi.Transmitter", false, "MidiSystem's default provider (provider#name)"},
		{"javax.sound.sampled.Clip", false, "AudioSystem's default provider (provider#name)"},
		{"javax.sound.sampled.Port", false, "AudioSystem's default provider (provider#name)"},
		{"javax.sound.sampled.SourceDataLine", false, "AudioSystem's default provider (provider#name)"},
		{"javax.sound.sampled.TargetDataLine", false, "AudioSystem's default provider (provider#name)"},
	},
	Swing: {
		{"swing.defaultlaf", false, "UIManager loads the default look and feel"},
		{"swing.auxiliarylaf", true, "UIManager loads the auxiliary look and feels"},
		{"swing.plaf.multiplexinglaf", false, "UIManager loads the multiplexing look and feel"},
		{".class", false, "UIManager lists the installed look and feel (swing.installedlaf.<id>.class)"},
	},
	JAXP: {
		{"javax.xml.parsers.DocumentBuilderFactory", false, jaxpWhy},
		{"javax.xml.parsers.SAXParserFactory", false, jaxpWhy},
		{"javax.xml.transform.TransformerFactory", false, jaxpWhy},
		{"javax.xml.stream.XMLInputFactory", false, jaxpWhy},
		{"javax.xml.stream.XMLOutputFactory", false, jaxpWhy},
		{"javax.xml.stream.XMLEventFactory", false, jaxpWhy},
		{"javax.xml.datatype.DatatypeFactory", false, jaxpWhy},
		{"javax.xml.xpath.XPathFactory:", false, jaxpWhy},
		{"javax.xml.validation.SchemaFactory:", false, jaxpWhy},
	},
	Accessibility: {
		{"assistive_technologies", true, "Toolkit loads the assistive technologies (AccessibilityProvider names, or classes)"},
	},
}

const jaxpWhy = "the JAXP FactoryFinder instantiates it (key: the factory, or factory:model URI)"

// confClassNames collects the class names of security providers and classKeys.
func (r *reader) confClassNames() {
	for _, sp := range r.c.security {
		if sp.Class != "" {
			r.c.classes = append(r.c.classes, ClassName{Class: sp.Class, Key: "security.provider." + strconv.Itoa(sp.N),
				Why: "java.security.Security loads the provider (" + sp.How.String() + ")", Source: sp.Source})
		}
	}
	for _, file := range confFiles {
		start := len(r.c.classes)
		keys := r.c.ConfKeys(file)
		for _, k := range keys {
			v := r.c.conf[file][k]
			for _, ck := range classKeys[file] {
				suffix := strings.HasPrefix(ck.key, ".") && strings.HasSuffix(k, ck.key)
				prefix := strings.HasSuffix(ck.key, ":") && strings.HasPrefix(k, ck.key)
				if k != ck.key && !suffix && !prefix {
					continue
				}
				if file == Swing && ck.key == ".class" && !strings.HasPrefix(k, "swing.installedlaf.") {
					continue
				}
				names := []string{v.Value}
				if ck.list {
					names = strings.FieldsFunc(v.Value, func(c rune) bool { return c == ',' || c == ' ' || c == '\t' })
				}
				for _, n := range names {
					n = strings.TrimSpace(n)
					if file == Sound {
						n, _, _ = strings.Cut(n, "#") // "provider#device": the provider is the class
					}
					if n == "" {
						continue
					}
					if !legalBinaryName(n) {
						r.warn(v.Source, "%s: %q is not a class name", k, n)
						continue
					}
					r.c.classes = append(r.c.classes, ClassName{Class: strings.ReplaceAll(n, ".", "/"), Key: k, Why: ck.why, Source: v.Source})
				}
				break
			}
		}
		// Keys were visited sorted; report in the order of the file.
		slices.SortStableFunc(r.c.classes[start:], func(a, b ClassName) int { return cmp.Compare(a.Source.Line, b.Source.Line) })
	}
}
