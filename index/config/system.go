package config

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
)

// versionProps maps constants of java.lang.VersionProps, which the build writes
// and VersionProps.init copies into the system properties, to those properties.
var versionProps = map[string]string{
	"java_version":          "java.version",
	"java_version_date":     "java.version.date",
	"java_runtime_version":  "java.runtime.version",
	"java_runtime_name":     "java.runtime.name",
	"CLASSFILE_MAJOR_MINOR": "java.class.version",
	"VERSION_SPECIFICATION": "java.specification.version",
	"VENDOR":                "java.vendor",
	"VENDOR_URL":            "java.vendor.url",
}

// readSystem derives the default values of system properties that do not depend
// on the machine or the user: java.home (the JDK analysed), what
// java.lang.VersionProps holds as constants, the fixed specification names it puts,
// and what the release file's OS_NAME and OS_ARCH determine (the separators,
// os.name, os.arch). Values that come from the environment (user.*, java.io.tmpdir,
// file.encoding before JDK 18, java.class.path) are level 5's and are left out.
func (r *reader) readSystem() {
	set := func(k, v string, src Source) {
		if _, ok := r.c.system[k]; !ok {
			r.c.system[k] = Value{Value: v, Source: src}
		}
	}
	home := r.c.jdkHome
	set("java.home", home, Source{Note: "the JDK analysed"})
	rel := r.releaseFile()
	relPath := filepath.Join(home, "release")

	if r.c.release >= 9 {
		if cl := r.cp.Lookup("java/lang/VersionProps"); cl != nil {
			src := Source{Path: cl.Container, Entry: cl.Entry, Note: "constant of java.lang.VersionProps"}
			f, err := classfile.Parse(cl.Data)
			if err != nil {
				r.warn(src, "%v", err)
			} else {
				for _, fd := range f.Fields {
					key, ok := versionProps[fd.Name]
					if ok && fd.ConstantValue != 0 && fd.Desc == "Ljava/lang/String;" && f.Pool.Tag(fd.ConstantValue) == classfile.TagString {
						set(key, f.Pool.String(fd.ConstantValue), src)
					}
				}
				vp := Source{Path: cl.Container, Entry: cl.Entry, Note: "VersionProps.init"}
				set("java.specification.name", "Java Platform API Specification", vp)
				set("java.specification.vendor", "Oracle Corporation", vp)
			}
		}
	}
	fromRelease := func(key, prop string) {
		if v, ok := rel[key]; ok && v != "" {
			set(prop, v, Source{Path: relPath, Note: "release: " + key})
		}
	}
	fromRelease("JAVA_VERSION", "java.version")
	fromRelease("JAVA_RUNTIME_VERSION", "java.runtime.version")
	fromRelease("JAVA_VERSION_DATE", "java.version.date")
	fromRelease("IMPLEMENTOR", "java.vendor")
	// VersionProps.VENDOR_VERSION is not a constant (jlink may rewrite it); the
	// release file has the value the build gave it.
	fromRelease("IMPLEMENTOR_VERSION", "java.vendor.version")
	if r.c.release >= 9 {
		set("java.specification.version", strconv.Itoa(r.c.release), Source{Path: relPath, Note: "release: JAVA_VERSION"})
	}

	osName, arch := rel["OS_NAME"], rel["OS_ARCH"]
	osSrc := Source{Path: relPath, Note: "release: OS_NAME=" + osName}
	switch osName {
	case "Linux", "Darwin", "AIX", "SunOS", "FreeBSD", "OpenBSD", "NetBSD":
		set("file.separator", "/", osSrc)
		set("path.separator", ":", osSrc)
		set("line.separator", "\n", osSrc)
	case "Windows":
		set("file.separator", `\`, osSrc)
		set("path.separator", ";", osSrc)
		set("line.separator", "\r\n", osSrc)
	}
	switch osName {
	case "Linux", "AIX", "SunOS", "FreeBSD":
		set("os.name", osName, osSrc)
	case "Darwin":
		set("os.name", "Mac OS X", osSrc)
	}
	archSrc := Source{Path: relPath, Note: "release: OS_NAME=" + osName + " OS_ARCH=" + arch}
	switch {
	case arch == "":
	case (osName == "Linux" || osName == "Windows") && arch == "x86_64":
		// The launcher's name for x86_64 outside macOS.
		set("os.arch", "amd64", archSrc)
	case osName == "Linux" && (arch == "x86" || arch == "i686" || arch == "i586"):
		set("os.arch", "i386", archSrc)
	case osName != "":
		set("os.arch", arch, archSrc)
	}
	switch arch {
	case "x86_64", "aarch64", "ppc64", "ppc64le", "s390x", "riscv64", "sparcv9", "loongarch64":
		set("sun.arch.data.model", "64", archSrc)
	case "x86", "i386", "i586", "i686", "arm", "ppc":
		set("sun.arch.data.model", "32", archSrc)
	}
	if r.c.release >= 18 {
		// JEP 400: UTF-8 by default, whatever the locale.
		set("file.encoding", "UTF-8", Source{Path: relPath, Note: "JEP 400: the default since JDK 18"})
	}
}

// SetByJVM reports whether the JVM or the java launcher sets system property key at
// startup from the machine or the command line (hotspot's
// Arguments::init_system_properties, jdk.internal.util.SystemProps, the launcher):
// its value is the run's, unknown unless configured. Correct-Env takes any other key
// that neither the configuration nor reachable code sets to be unset. The list
// covers JDK 8 to 25; the java.*, sun.* and jdk.* keys the JDK only reads (its
// switches) are not set unless the user sets them, which is the configured
// environment.
func SetByJVM(key string) bool {
	for _, p := range jvmPrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return jvmKeys[key]
}

var jvmPrefixes = []string{"java.vm.", "user.", "jdk.module.", "java.specification.", "java.vendor", "java.runtime.", "java.version"}

var jvmKeys = map[string]bool{
	"java.home": true, "java.class.path": true, "java.library.path": true, "java.io.tmpdir": true,
	"java.class.version": true, "java.ext.dirs": true, "java.endorsed.dirs": true,
	"sun.boot.library.path": true, "sun.boot.class.path": true, "jdk.boot.class.path.append": true,
	"file.encoding": true, "native.encoding": true, "sun.jnu.encoding": true,
	"stdout.encoding": true, "stderr.encoding": true, "sun.stdout.encoding": true, "sun.stderr.encoding": true,
	"file.separator": true, "path.separator": true, "line.separator": true,
	"os.name": true, "os.arch": true, "os.version": true,
	"sun.arch.data.model": true, "sun.cpu.endian": true, "sun.cpu.isalist": true,
	"sun.io.unicode.encoding": true, "sun.os.patch.level": true, "sun.desktop": true,
	"sun.java.launcher": true, "sun.java.command": true, "sun.management.compiler": true,
	"sun.nio.MaxDirectMemorySize": true, "sun.nio.PageAlignDirectMemory": true,
	"jdk.debug": true, "jdk.internal.vm.ci.enabled": true,
	"java.awt.headless": true, "java.awt.graphicsenv": true, "awt.toolkit": true, "java.awt.printerjob": true,
	"http.proxyHost": true, "http.proxyPort": true, "https.proxyHost": true, "https.proxyPort": true,
	"ftp.proxyHost": true, "ftp.proxyPort": true, "socksProxyHost": true, "socksProxyPort": true,
	"http.nonProxyHosts": true, "ftp.nonProxyHosts": true, "socksNonProxyHosts": true,
}
