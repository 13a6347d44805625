package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/ide"
	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/incremental/buildtool"
)

// ConfigSection is the section of the client's configuration the server reads
// ("jcg.level", "jcg.classPath", ...).
const ConfigSection = "jcg"

// Settings are the user's choices. They come in layers, later ones winning:
// defaults, initializationOptions, workspace/configuration (or the settings of
// didChangeConfiguration), then what commands such as jcg.setLevel override.
type Settings struct {
	Level     callgraph.Level
	Algorithm callgraph.Algorithm

	// Discovery says what to analyse (class path, source roots, specification file).
	incremental.Discovery

	MainClasses []string // default: every application class with a main method
	EntryPoints []string // explicit entry methods pkg.Class.name[(desc)]
	LibraryMode bool
	// Env holds the values Correct-Env may assume: "key" is the system property key,
	// "env.NAME" the environment variable NAME (analysis.Options.Env).
	Env map[string]string

	Severity       protocol.DiagnosticSeverity // of unresolved and partially resolved sites; 0: none
	NativeSeverity protocol.DiagnosticSeverity // of reachable native calls; 0: none
	HoverTargets   int                         // targets listed in a hover
	// MaxCallItems bounds the items of one incoming or outgoing calls answer
	// (hotcalls.go): beyond it the answer ends with a "… N more" item that names
	// where the rest are, and expanding that item lists the next page. Hovers count
	// every target.
	MaxCallItems int
	// Unreachable is the severity of the diagnostics of unreachable application
	// methods: hint, or 0 for none.
	Unreachable protocol.DiagnosticSeverity
	CodeLens    bool // the caller counts above each method
}

// DefaultSettings are the settings before any configuration.
func DefaultSettings() Settings {
	return Settings{
		Level:          analysis.DefaultLevel,
		Algorithm:      analysis.DefaultAlgorithm,
		Severity:       protocol.DiagnosticSeverityWarning,
		NativeSeverity: protocol.DiagnosticSeverityInformation,
		Discovery:      incremental.Discovery{SpecFile: "jcg-spec.txt"},
		HoverTargets:   10,
		MaxCallItems:   100,
		Unreachable:    protocol.DiagnosticSeverityHint,
		CodeLens:       true,
	}
}

// settingsLayer is one layer of raw settings: the keys of the "jcg" section.
type settingsLayer map[string]json.RawMessage

// parseLayer reads a configuration value: either the "jcg" section itself or an
// object holding it under "jcg" (clients differ in what they send), with dotted
// keys ("jcg.level") accepted as well.
func parseLayer(raw []byte) (settingsLayer, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("settings: want a JSON object: %w", err)
	}
	if sec, ok := obj[ConfigSection]; ok {
		var inner map[string]json.RawMessage
		if err := json.Unmarshal(sec, &inner); err == nil {
			obj = inner
		}
	}
	out := settingsLayer{}
	for k, v := range obj {
		out[strings.TrimPrefix(k, ConfigSection+".")] = v
	}
	return out, nil
}

// apply decodes a layer onto st. Bad values are reported and leave the setting as it
// was, so one typo does not discard the rest of the configuration.
func (st *Settings) apply(l settingsLayer) (problems []string) {
	bad := func(k string, err error) {
		problems = append(problems, fmt.Sprintf("setting %s.%s: %v", ConfigSection, k, err))
	}
	strs := func(k string, raw json.RawMessage, dst *[]string) {
		var v []string
		if err := json.Unmarshal(raw, &v); err != nil {
			var one string
			if json.Unmarshal(raw, &one) != nil {
				bad(k, fmt.Errorf("want a list of strings"))
				return
			}
			v = []string{one}
		}
		*dst = v
	}
	for _, k := range slices.Sorted(maps.Keys(l)) {
		raw := l[k]
		if string(bytes.TrimSpace(raw)) == "null" {
			continue
		}
		switch k {
		case "level", "assumptionLevel":
			// A level's name only: a number would mean another level once levels
			// are added (ParseLevel says so).
			var s string
			if json.Unmarshal(raw, &s) != nil {
				s = string(bytes.TrimSpace(raw))
			}
			lv, err := callgraph.ParseLevel(s)
			if err != nil {
				bad(k, err)
				continue
			}
			st.Level = lv
		case "algorithm":
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				bad(k, fmt.Errorf("want one of %s", callgraph.AlgorithmChoices()))
				continue
			}
			alg, err := callgraph.ParseAlgorithm(s)
			if err != nil {
				bad(k, err)
				continue
			}
			st.Algorithm = alg
		case "classPath":
			strs(k, raw, &st.ClassPath)
		case "libraries":
			strs(k, raw, &st.Libraries)
		case "sourceRoots":
			strs(k, raw, &st.SourceRoots)
		case "mainClasses":
			strs(k, raw, &st.MainClasses)
		case "entryPoints":
			strs(k, raw, &st.EntryPoints)
		case "reflectionLogs":
			strs(k, raw, &st.ReflectionLogs)
		case "buildTool":
			var s string
			if err := json.Unmarshal(raw, &s); err != nil || !slices.Contains(buildtool.Modes, s) {
				bad(k, fmt.Errorf("want one of %q", buildtool.Modes))
				continue
			}
			st.BuildTool = s
		case "jdkHome", "specFile":
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				bad(k, fmt.Errorf("want a string"))
				continue
			}
			if k == "jdkHome" {
				st.JDKHome = s
			} else if s != "" {
				st.SpecFile = s
			}
		case "noJdk", "libraryMode", "codeLens":
			var b bool
			if err := json.Unmarshal(raw, &b); err != nil {
				bad(k, fmt.Errorf("want true or false"))
				continue
			}
			switch k {
			case "noJdk":
				st.NoJDK = b
			case "libraryMode":
				st.LibraryMode = b
			default:
				st.CodeLens = b
			}
		case "unreachable":
			var s string
			if err := json.Unmarshal(raw, &s); err != nil || s != "hint" && s != "off" {
				bad(k, fmt.Errorf("want hint or off"))
				continue
			}
			st.Unreachable = 0
			if s == "hint" {
				st.Unreachable = protocol.DiagnosticSeverityHint
			}
		case "release", "hoverTargets", "maxCallHierarchyItems":
			var n int
			if err := json.Unmarshal(raw, &n); err != nil || n < 0 {
				bad(k, fmt.Errorf("want a non-negative number"))
				continue
			}
			switch k {
			case "release":
				st.Release = n
			case "hoverTargets":
				st.HoverTargets = n
			default:
				st.MaxCallItems = n
			}
		case "env":
			var m map[string]string
			if err := json.Unmarshal(raw, &m); err != nil {
				bad(k, fmt.Errorf("want an object of strings"))
				continue
			}
			st.Env = m
		case "diagnosticSeverity", "nativeDiagnosticSeverity":
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				bad(k, fmt.Errorf("want error, warning, information, hint or off"))
				continue
			}
			sev, err := parseSeverity(s)
			if err != nil {
				bad(k, err)
				continue
			}
			if k == "diagnosticSeverity" {
				st.Severity = sev
			} else {
				st.NativeSeverity = sev
			}
		default:
			problems = append(problems, fmt.Sprintf("unknown setting %s.%s (ignored)", ConfigSection, k))
		}
	}
	return problems
}

func parseSeverity(s string) (protocol.DiagnosticSeverity, error) {
	switch strings.ToLower(s) {
	case "error":
		return protocol.DiagnosticSeverityError, nil
	case "warning":
		return protocol.DiagnosticSeverityWarning, nil
	case "information", "info":
		return protocol.DiagnosticSeverityInformation, nil
	case "hint":
		return protocol.DiagnosticSeverityHint, nil
	case "off", "none":
		return 0, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning, information, hint or off)", s)
}

// options returns the analysis options of the settings (the host adds each project's
// specification).
func (st *Settings) options() analysis.Options {
	o := analysis.Options{
		Level:       st.Level,
		Algorithm:   st.Algorithm,
		Mains:       st.MainClasses,
		Entries:     st.EntryPoints,
		LibraryMode: st.LibraryMode,
		Env:         st.Env,
	}
	return o
}

// equal reports whether two settings are the same.
func (st *Settings) equal(o *Settings) bool {
	return fmt.Sprintf("%#v", *st) == fmt.Sprintf("%#v", *o)
}

// present returns what features present with the settings.
func (st *Settings) present() ide.Settings {
	return ide.Settings{Severity: toSeverity(st.Severity), NativeSeverity: toSeverity(st.NativeSeverity),
		HoverTargets: st.HoverTargets, MaxCallItems: st.MaxCallItems,
		Unreachable: toSeverity(st.Unreachable), CodeLens: st.CodeLens}
}
