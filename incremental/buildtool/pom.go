package buildtool

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Pos is a place in a file: 1-based line and column (in bytes).
type Pos struct {
	File      string `json:"file"`
	Line, Col int
}

func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// pom is one POM file as written: nothing inherited, nothing interpolated.
type pom struct {
	File                                string
	Group, Artifact, Version, Packaging string
	Parent                              *parentRef
	// Props are the <properties>, in file order (later keys win).
	Props    []prop
	Deps     []pomDep
	Managed  []pomDep // <dependencyManagement>
	Modules  []string
	Profiles []profile
	// Plugins are the versions the build's plugin management pins, by artifactId of
	// group org.apache.maven.plugins (the dependency plugin's is the one used).
	Plugins    map[string]string
	Relocation *Coord // <distributionManagement><relocation>, fields may be empty
}

type prop struct{ Key, Value string }

type parentRef struct {
	Group, Artifact, Version string
	RelativePath             string // "" for the default ../pom.xml
	HasRelativePath          bool   // <relativePath/> given (even empty: no parent on disk)
	Pos                      Pos
}

// pomDep is a <dependency> as written.
type pomDep struct {
	Group, Artifact, Version, Type, Classifier, Scope, Optional, SystemPath string
	Exclusions                                                              []exclusion
	Pos                                                                     Pos
}

type exclusion struct{ Group, Artifact string }

func (e exclusion) matches(group, artifact string) bool {
	return (e.Group == "*" || e.Group == group) && (e.Artifact == "*" || e.Artifact == artifact)
}

// profile is a <profile> with the parts of it that change dependencies.
type profile struct {
	ID              string
	ActiveByDefault bool
	JDK             string // <activation><jdk>
	Property        string // <activation><property><name>, "!x" for absent
	PropertyValue   string
	File            string // <activation><file><exists> or "!"+<missing>
	Props           []prop
	Deps, Managed   []pomDep
	Modules         []string
}

// maxPOMSize bounds what is read of one POM: real ones are kilobytes, generated
// BOMs a few hundred.
const maxPOMSize = 8 << 20

// node is an XML element with its text and children.
type node struct {
	Name     string
	Text     string
	Children []*node
	Off      int64
}

func (n *node) child(name string) *node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func (n *node) text(name string) string {
	if c := n.child(name); c != nil {
		return strings.TrimSpace(c.Text)
	}
	return ""
}

func (n *node) all(name string) []*node {
	if n == nil {
		return nil
	}
	var out []*node
	for _, c := range n.Children {
		if c.Name == name {
			out = append(out, c)
		}
	}
	return out
}

// maxDepth bounds the nesting of a POM's elements (real ones nest about 8 deep).
const maxDepth = 64

// parseXML reads a document into a tree of elements (local names, text trimmed
// later), recording each element's byte offset.
func parseXML(data []byte) (*node, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Entity = xml.HTMLEntity // &nbsp; and the like in descriptions
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	var stack []*node
	var root *node
	for {
		off := d.InputOffset()
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &node{Name: t.Name.Local, Off: off}
			if len(stack) == 0 {
				if root != nil {
					return nil, fmt.Errorf("more than one root element")
				}
				root = n
			} else {
				p := stack[len(stack)-1]
				p.Children = append(p.Children, n)
			}
			if len(stack) == maxDepth {
				return nil, fmt.Errorf("elements nested more than %d deep", maxDepth)
			}
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].Text += string(t)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("no root element")
	}
	return root, nil
}

// lineIndex maps byte offsets to lines and columns.
type lineIndex []int

func newLineIndex(data []byte) lineIndex {
	li := lineIndex{0}
	for i, b := range data {
		if b == '\n' {
			li = append(li, i+1)
		}
	}
	return li
}

func (li lineIndex) pos(file string, off int64) Pos {
	lo, hi := 0, len(li)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if int64(li[mid]) <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return Pos{File: file, Line: lo + 1, Col: int(off) - li[lo] + 1}
}

// parsePOM reads a POM. The error names the file and what is wrong.
func parsePOM(file string, data []byte) (*pom, error) {
	if len(data) > maxPOMSize {
		return nil, fmt.Errorf("%s: larger than %d MB", file, maxPOMSize>>20)
	}
	root, err := parseXML(data)
	if err != nil {
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%s:%d: not well-formed XML: %s", file, se.Line, se.Msg)
		}
		return nil, fmt.Errorf("%s: not well-formed XML: %w", file, err)
	}
	if root.Name != "project" {
		return nil, fmt.Errorf("%s: root element <%s>, want <project>", file, root.Name)
	}
	li := newLineIndex(data)
	p := &pom{File: file,
		Group: root.text("groupId"), Artifact: root.text("artifactId"), Version: root.text("version"),
		Packaging: root.text("packaging"), Plugins: map[string]string{}}
	if n := root.child("parent"); n != nil {
		p.Parent = &parentRef{Group: n.text("groupId"), Artifact: n.text("artifactId"), Version: n.text("version"),
			RelativePath: n.text("relativePath"), HasRelativePath: n.child("relativePath") != nil, Pos: li.pos(file, n.Off)}
	}
	p.Props = props(root.child("properties"))
	p.Deps = deps(root.child("dependencies"), li, file)
	p.Managed = deps(root.child("dependencyManagement").child("dependencies"), li, file)
	p.Modules = modules(root.child("modules"))
	for _, section := range []*node{root.child("build").child("pluginManagement").child("plugins"), root.child("build").child("plugins")} {
		for _, pl := range section.all("plugin") {
			if g := pl.text("groupId"); (g == "" || g == "org.apache.maven.plugins") && pl.text("version") != "" {
				p.Plugins[pl.text("artifactId")] = pl.text("version")
			}
		}
	}
	if r := root.child("distributionManagement").child("relocation"); r != nil {
		p.Relocation = &Coord{Group: r.text("groupId"), Artifact: r.text("artifactId"), Version: r.text("version")}
	}
	for _, pn := range root.child("profiles").all("profile") {
		pr := profile{ID: pn.text("id"), Props: props(pn.child("properties")),
			Deps:    deps(pn.child("dependencies"), li, file),
			Managed: deps(pn.child("dependencyManagement").child("dependencies"), li, file),
			Modules: modules(pn.child("modules"))}
		if a := pn.child("activation"); a != nil {
			pr.ActiveByDefault = a.text("activeByDefault") == "true"
			pr.JDK = a.text("jdk")
			if pp := a.child("property"); pp != nil {
				pr.Property, pr.PropertyValue = pp.text("name"), pp.text("value")
			}
			if f := a.child("file"); f != nil {
				if e := f.text("exists"); e != "" {
					pr.File = e
				} else if m := f.text("missing"); m != "" {
					pr.File = "!" + m
				}
			}
		}
		p.Profiles = append(p.Profiles, pr)
	}
	return p, nil
}

func props(n *node) []prop {
	var out []prop
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		out = append(out, prop{c.Name, strings.TrimSpace(c.Text)})
	}
	return out
}

func modules(n *node) []string {
	var out []string
	for _, m := range n.all("module") {
		if s := strings.TrimSpace(m.Text); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func deps(n *node, li lineIndex, file string) []pomDep {
	var out []pomDep
	for _, d := range n.all("dependency") {
		pd := pomDep{Group: d.text("groupId"), Artifact: d.text("artifactId"), Version: d.text("version"),
			Type: d.text("type"), Classifier: d.text("classifier"), Scope: d.text("scope"),
			Optional: d.text("optional"), SystemPath: d.text("systemPath"), Pos: li.pos(file, d.Off)}
		for _, e := range d.child("exclusions").all("exclusion") {
			pd.Exclusions = append(pd.Exclusions, exclusion{e.text("groupId"), e.text("artifactId")})
		}
		out = append(out, pd)
	}
	return out
}
