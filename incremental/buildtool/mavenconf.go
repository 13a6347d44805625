package buildtool

import (
	"os"
	"path/filepath"
	"strings"
)

// mavenConf is what decides a Maven build's class path besides its POMs: the
// settings files, the local repository and .mvn/maven.config.
type mavenConf struct {
	userSettings   string // the user's settings.xml (may not exist)
	globalSettings string // the installation's conf/settings.xml ("" without mvn)
	localRepo      string
	// mavenConfig is .mvn/maven.config's path (may not exist) and args its
	// arguments, passed to mvn as the mvn script does.
	mavenConfig string
	args        []string
	userProps   map[string]string
	profiles    map[string]bool
	problems    []Problem
}

// readMavenConf reads the configuration of the Maven build at root, as mvn would
// find it: .mvn/maven.config (found in root or a directory above it with .mvn/),
// the settings file it names or the user's (~/.m2/settings.xml), the global one
// of the installation, and the local repository they say (-Dmaven.repo.local wins,
// then the user's settings, the global ones, ~/.m2/repository).
func readMavenConf(root, mvn, home string) *mavenConf {
	mc := &mavenConf{userProps: map[string]string{}, profiles: map[string]bool{}}
	base := root
	for d := root; ; d = filepath.Dir(d) {
		if isDir(filepath.Join(d, ".mvn")) {
			base = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	mc.mavenConfig = filepath.Join(base, ".mvn", "maven.config")
	if data, err := os.ReadFile(mc.mavenConfig); err == nil {
		mc.args = strings.Fields(string(data))
	}
	if home != "" {
		mc.userSettings = filepath.Join(home, ".m2", "settings.xml")
	}
	for i := 0; i < len(mc.args); i++ {
		a := mc.args[i]
		next := func() string {
			if i+1 < len(mc.args) {
				i++
				return mc.args[i]
			}
			return ""
		}
		switch {
		case a == "-s" || a == "--settings":
			mc.userSettings = absFrom(base, next())
		case strings.HasPrefix(a, "--settings="):
			mc.userSettings = absFrom(base, strings.TrimPrefix(a, "--settings="))
		case a == "-D" || a == "--define":
			setProp(mc.userProps, next())
		case strings.HasPrefix(a, "-D"):
			setProp(mc.userProps, a[2:])
		case a == "-P" || a == "--activate-profiles":
			setProfiles(mc.profiles, next())
		case strings.HasPrefix(a, "-P"):
			setProfiles(mc.profiles, a[2:])
		}
	}
	if mvn != "" {
		if real, err := filepath.EvalSymlinks(mvn); err == nil {
			mc.globalSettings = filepath.Join(filepath.Dir(filepath.Dir(real)), "conf", "settings.xml")
		}
	}
	repo := mc.userProps["maven.repo.local"]
	for _, s := range []string{mc.userSettings, mc.globalSettings} {
		if repo != "" || s == "" {
			continue
		}
		data, err := os.ReadFile(s)
		if err != nil {
			continue
		}
		root, err := parseXML(data)
		if err != nil {
			mc.problems = append(mc.problems, Problem{Pos: Pos{File: s}, Msg: "settings: not well-formed XML: " + err.Error()})
			continue
		}
		repo = root.text("localRepository")
	}
	if repo != "" {
		repo = strings.NewReplacer("${user.home}", home).Replace(repo)
		repo = os.Expand(repo, func(k string) string {
			if name, ok := strings.CutPrefix(k, "env."); ok {
				return os.Getenv(name)
			}
			return "${" + k + "}"
		})
	}
	if repo == "" && home != "" {
		repo = filepath.Join(home, ".m2", "repository")
	}
	mc.localRepo = absFrom(base, repo)
	return mc
}

func absFrom(base, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(base, p)
}

func setProp(m map[string]string, kv string) {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		v = "true"
	}
	if k != "" {
		m[k] = v
	}
}

func setProfiles(m map[string]bool, list string) {
	for _, p := range strings.Split(list, ",") {
		p = strings.TrimSpace(p)
		switch {
		case p == "":
		case strings.HasPrefix(p, "!") || strings.HasPrefix(p, "-"):
			m[p[1:]] = false
		default:
			m[strings.TrimPrefix(p, "+")] = true
		}
	}
}
