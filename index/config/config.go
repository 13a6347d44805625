// Package config reads the configuration a class path ships, for the analysis at
// level 6 (Correct-JDK), where JDK-internal dynamic sites whose class names come
// from that configuration resolve from it:
//
//   - service providers: `provides S with P...` of every module descriptor (the
//     JDK image's /<module>/module-info.class, jmods, modular jars and class
//     directories) and the lines of META-INF/services/<S> in jars and class
//     directories ([Config.Providers], [Config.Uses]);
//   - the JDK's conf/ files: conf/security/java.security (security providers,
//     [Config.SecurityProviders], and the other class-valued security
//     properties), conf/logging.properties (handlers, formatters, filters,
//     config classes), conf/sound.properties, conf/swing.properties,
//     conf/accessibility.properties, conf/net.properties and
//     conf/management/management.properties ([Config.ConfProperty],
//     [Config.ClassNames]);
//   - default values of system properties that the image determines
//     ([Config.SystemProperty]);
//   - the index files of dependency-injection containers on the class path:
//     Sisu's META-INF/sisu/javax.inject.Named and Spring's
//     META-INF/spring.factories ([Config.Indexed]), which the analysis reads at
//     Correct-JDK where a container's loading site takes its names from them.
//
// Every answer carries its [Source] (file, entry, line) as evidence.
//
// # What is and is not modelled
//
// ServiceLoader ignores META-INF/services inside named modules (the JDK image,
// jmods, modular jars on the module path), and ignores module descriptors of jars
// on the class path. Whether a modular jar of the class path runs on the module
// path or the class path is not known here, so both its `provides` and its
// META-INF/services lines are reported, each with its [ProviderKind]; the JDK's
// image and jmods contribute their descriptors only.
//
// Files that a user may add at run time (java.security.properties, a
// java.util.logging.config.file, ~/.java.policy) are the environment's, not the
// class path's: they belong to level 5 (Correct-Env), and are not read.
//
// # Bad input
//
// A truncated module descriptor, a services file with an illegal class name or a
// hostile java.security is a [Warning] naming the file and the problem; the rest
// is still read. Nothing panics, and sizes are bounded before anything is read.
package config

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

// Source is where a piece of configuration was found.
type Source struct {
	// Path is the file, or the container (JDK image, jar, jmod, directory)
	// holding Entry.
	Path  string
	Entry string // the entry in Path ("/java.base/module-info.class"), "" for a file
	Line  int    // 1-based line of a text file or entry; 0 when not a line
	// Note says how the value was derived when it was not read verbatim, e.g.
	// "release: OS_NAME=Linux".
	Note string
}

func (s Source) String() string {
	var b strings.Builder
	b.WriteString(s.Path)
	if s.Entry != "" {
		b.WriteString("!")
		b.WriteString(s.Entry)
	}
	if s.Line > 0 {
		fmt.Fprintf(&b, ":%d", s.Line)
	}
	if s.Note != "" {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "(%s)", s.Note)
	}
	return b.String()
}

// Warning is a problem with one file or entry; the rest of the configuration was
// still read.
type Warning struct {
	Source Source
	Msg    string
}

func (w Warning) Error() string { return "config: " + w.Source.String() + ": " + w.Msg }

// ProviderKind says how a service provider was declared.
type ProviderKind uint8

const (
	// Provides is a `provides S with P` of a module descriptor: what
	// ServiceLoader uses for named modules.
	Provides ProviderKind = iota
	// ServicesFile is a line of META-INF/services/S: what ServiceLoader uses
	// for jars and directories on the class path (unnamed modules).
	ServicesFile
)

func (k ProviderKind) String() string {
	if k == Provides {
		return "provides"
	}
	return "META-INF/services"
}

// Provider is one declared provider of a service.
type Provider struct {
	Service string // internal name, e.g. "java/nio/file/spi/FileSystemProvider"
	Class   string // internal name of the provider class
	Kind    ProviderKind
	Module  string // the declaring module for Provides, else ""
	Origin  classpath.Origin
	Source  Source
}

// Use is a `uses S` of a module descriptor.
type Use struct {
	Service string
	Module  string
	Origin  classpath.Origin
	Source  Source
}

// Value is a configured value with its evidence.
type Value struct {
	Value  string
	Source Source
}

// ClassName is a class that configuration names for the JDK to load or
// instantiate reflectively.
type ClassName struct {
	Class string // internal name
	// Key is the property naming it ("handlers", "security.provider.3",
	// "policy.provider"), or the service for providers.
	Key    string
	Why    string // what the JDK does with it, e.g. "LogManager instantiates the root logger's handlers"
	Source Source
}

// Conf files read, relative to the JDK's conf directory; the keys of ConfProperty.
const (
	JavaSecurity  = "security/java.security"
	Logging       = "logging.properties"
	Net           = "net.properties"
	Sound         = "sound.properties"
	Swing         = "swing.properties"
	Accessibility = "accessibility.properties"
	Management    = "management/management.properties"
	JAXP          = "jaxp.properties" // JDK 9+; read by javax.xml's FactoryFinder
)

// confFiles are the conf files read, in the order ClassNames reports them.
var confFiles = []string{JavaSecurity, Logging, Sound, Swing, Accessibility, JAXP, Net, Management}

// Config is the configuration of a class path. It is immutable, and safe for
// concurrent use. Slices it returns must not be modified.
type Config struct {
	jdkHome   string
	release   int
	providers map[string][]Provider // by service
	uses      map[string][]Use      // by service
	security  []SecurityProvider
	conf      map[string]map[string]Value // by conf file, then key
	confPath  map[string]string           // conf file -> the path read
	system    map[string]Value
	classes   []ClassName
	warnings  []Warning
	unread    []string // nested archives whose configuration was not read
	indexed   map[IndexKind][]Indexed
	// open maps each JDK module whose descriptor was read to the packages it
	// exports or opens to every module.
	open map[string]map[string]bool
	// pkgModule maps the packages of the JDK's module classes to their module.
	pkgModule map[string]string
	// fingerprint hashes the fields above (Fingerprint).
	fingerprint [sha256.Size]byte
}

// Unread lists the archives of the class path whose module descriptors, services
// files and container indexes were not read (jars nested in jars): with any,
// Providers and Indexed may miss some.
func (c *Config) Unread() []string { return clip(c.unread) }

// JDKHome is the JDK whose conf/ was read; "" when the class path has none.
func (c *Config) JDKHome() string { return c.jdkHome }

// Providers returns the declared providers of a service (internal name), in
// class-path order: the JDK's modules in image order, then the other containers;
// within a container, declaration order. A class declared twice (by two jars, or by
// a descriptor and a services file) is listed for each declaration.
func (c *Config) Providers(service string) []Provider { return clip(c.providers[service]) }

// Services returns every service with declared providers, sorted.
func (c *Config) Services() []string {
	return slices.Sorted(maps.Keys(c.providers))
}

// UsedServices returns every service some module uses, sorted.
func (c *Config) UsedServices() []string {
	return slices.Sorted(maps.Keys(c.uses))
}

// Uses returns the `uses` declarations of a service (internal name).
func (c *Config) Uses(service string) []Use { return clip(c.uses[service]) }

// SecurityProviders returns the security.provider.N entries of java.security, in
// the order java.security.Security loads them (N = 1, 2, ... until the first gap
// or empty value; duplicates dropped, as sun.security.jca.ProviderList does).
func (c *Config) SecurityProviders() []SecurityProvider { return clip(c.security) }

// ConfProperty returns a property of a conf file (JavaSecurity, Logging, ...) as
// the JDK loads it (java.util.Properties semantics; includes of java.security
// resolved). Values are raw: ${...} is not expanded.
func (c *Config) ConfProperty(file, key string) (Value, bool) {
	v, ok := c.conf[file][key]
	return v, ok
}

// ConfKeys returns the keys of a conf file, sorted.
func (c *Config) ConfKeys(file string) []string {
	return slices.Sorted(maps.Keys(c.conf[file]))
}

// ConfPath returns the path of a conf file read, or "" when it is absent.
func (c *Config) ConfPath(file string) string { return c.confPath[file] }

// SystemProperty returns the default value of a system property as far as the
// JDK image determines it (see systemProperties), with its evidence.
func (c *Config) SystemProperty(key string) (Value, bool) {
	v, ok := c.system[key]
	return v, ok
}

// SystemPropertyKeys returns the keys SystemProperty knows, sorted.
func (c *Config) SystemPropertyKeys() []string {
	return slices.Sorted(maps.Keys(c.system))
}

// ClassNames returns every class that conf/ files name for the JDK to load (security
// providers, policy and login configuration providers, logging handlers, formatters,
// filters and config classes, sound providers, look-and-feels, assistive
// technologies, JAXP factories), in file order. Service providers are not repeated here: see
// Providers.
func (c *Config) ClassNames() []ClassName { return clip(c.classes) }

// Warnings returns the problems met while reading.
func (c *Config) Warnings() []Warning { return clip(c.warnings) }

func clip[T any](s []T) []T { return s[:len(s):len(s)] }

// Read reads the configuration of an opened class path: the module descriptors and
// services files of its containers and the conf/ files of its JDK (cp.JDKHome).
// Containers are read again from their files; the class path's Data are used only
// for a few JDK classes (see systemProperties), so cp must not be closed during
// Read. Problems are returned as warnings and kept in Config.Warnings.
func Read(cp *classpath.ClassPath) (*Config, []Warning) {
	r := &reader{
		c: &Config{
			jdkHome:   cp.JDKHome,
			release:   cp.Release,
			providers: map[string][]Provider{},
			uses:      map[string][]Use{},
			conf:      map[string]map[string]Value{},
			confPath:  map[string]string{},
			system:    map[string]Value{},
			indexed:   map[IndexKind][]Indexed{},
			open:      map[string]map[string]bool{},
			pkgModule: map[string]string{},
		},
		cp: cp,
	}
	for _, ct := range cp.Containers {
		r.readContainer(ct)
	}
	for _, ct := range cp.Nested {
		// Jars inside jars are read by the class path only: what their module
		// descriptors and services files declare is not known here.
		r.c.unread = append(r.c.unread, ct.Path)
	}
	for _, cl := range cp.Classes {
		if cl.Origin == classpath.JDK && cl.Module != "" {
			if i := strings.LastIndexByte(cl.Name, '/'); i > 0 {
				r.c.pkgModule[cl.Name[:i]] = cl.Module
			}
		}
	}
	if cp.JDKHome != "" {
		r.readSystem() // first: java.security's includes expand ${java.home}
		r.readConf()
	}
	r.c.warnings = r.warns
	// fmt prints maps sorted by key, and nothing here is a pointer: the text is
	// the same for the same configuration.
	r.c.fingerprint = sha256.Sum256(fmt.Appendf(nil, "%v", *r.c))
	return r.c, r.warns
}

// JDKInternal reports whether pkg (internal form) is a package of a JDK module
// that exports it to no module and opens it to none either, except by name: code
// outside the JDK cannot name its public classes and members, nor reach them by
// reflection (strong encapsulation, JDK 16 and later). It is false for a package
// whose module's descriptor was not read.
func (c *Config) JDKInternal(pkg string) bool {
	m, ok := c.pkgModule[pkg]
	if !ok {
		return false
	}
	open, read := c.open[m]
	return read && !open[pkg]
}

// Fingerprint is a hash of everything the configuration says. Caches of what is
// derived from a class path key on it besides the classes: a services file or a
// container index may change in a jar whose classes do not.
func (c *Config) Fingerprint() [sha256.Size]byte { return c.fingerprint }

// reader holds the state of one Read.
type reader struct {
	c       *Config
	cp      *classpath.ClassPath
	warns   []Warning
	release map[string]string // the JDK's release file
}

func (r *reader) warn(src Source, format string, args ...any) {
	r.warns = append(r.warns, Warning{Source: src, Msg: fmt.Sprintf(format, args...)})
}
