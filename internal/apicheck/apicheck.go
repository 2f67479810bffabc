// Package apicheck writes ddbkit's exported API as text, one feature per
// line, in the format of the Go repository's api/*.txt (cmd/api):
//
//	pkg github.com/ddbkit/ddbkit/todo, func NewMemoryStore(...func(*Options)) *MemoryStore
//	pkg github.com/ddbkit/ddbkit/todo, type Options struct, TableName string
//
// The committed files api/ddbkit.txt and api/ddbtest.txt are the record of
// what ddbkit promises; TestAPI fails when the code and the record differ,
// so that every change of the API is seen, and written in the CHANGELOG, in
// the commit that makes it. "make api" rewrites the files.
//
// It uses the standard library only, so that the check adds no module to
// go.mod: "go list -export -deps" gives each dependency's export data, which
// the gc importer reads, and each promised package is type-checked from its
// source with go/types, whose doc comments give the "//deprecated" lines.
//
// Where this differs from cmd/api, for readability: type parameters keep
// their names (cmd/api writes $0, $1), so renaming one shows as a change,
// and there is one build context, the host's (no promised file has build
// constraints). A method promoted from a package outside the record is not
// marked deprecated, since only the record's sources are read.
package apicheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// Files maps each file of the record, relative to the repository root, to
// the module whose packages it lists.
var Files = map[string]string{
	"api/ddbkit.txt":  "github.com/ddbkit/ddbkit",
	"api/ddbtest.txt": "github.com/ddbkit/ddbkit/ddbtest",
}

// Generate returns, for each file of Files, the lines it should hold: the
// features of every promised package of its module, sorted. A promised
// package is one a user can import: not a command, not internal, and not
// in examples/, cmd/ or bench/ (bench is a module of its own besides).
// root is the repository root, where go.work is.
func Generate(root string) (map[string][]string, error) {
	pkgs, err := load(root, "./...", "./ddbtest/...")
	if err != nil {
		return nil, err
	}
	byModule := map[string][]*listedPackage{}
	for _, p := range pkgs {
		if promised(p) {
			byModule[p.Module.Path] = append(byModule[p.Module.Path], p)
		}
	}
	out := map[string][]string{}
	for file, mod := range Files {
		if len(byModule[mod]) == 0 {
			return nil, fmt.Errorf("apicheck: no package of module %s under %s", mod, root)
		}
		lines, err := features(byModule[mod], pkgs)
		if err != nil {
			return nil, err
		}
		out[file] = lines
	}
	return out, nil
}

// Features returns the sorted features of the packages that patterns
// match in dir, whatever their path: the tests use it on a fixture.
func Features(dir string, patterns ...string) ([]string, error) {
	pkgs, err := load(dir, patterns...)
	if err != nil {
		return nil, err
	}
	var matched []*listedPackage
	for _, p := range pkgs {
		if !p.DepOnly {
			matched = append(matched, p)
		}
	}
	return features(matched, pkgs)
}

// Diff returns the lines of want missing from got (removed) and the lines
// of got missing from want (added), each sorted.
func Diff(want, got []string) (removed, added []string) {
	in := func(lines []string) map[string]bool {
		m := make(map[string]bool, len(lines))
		for _, l := range lines {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	for _, l := range want {
		if !g[l] {
			removed = append(removed, l)
		}
	}
	for _, l := range got {
		if !w[l] {
			added = append(added, l)
		}
	}
	sort.Strings(removed)
	sort.Strings(added)
	return removed, added
}

// ReadFile returns the lines of a committed file, none when it is missing.
func ReadFile(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"), nil
}

// Format returns lines as a file's content.
func Format(lines []string) []byte {
	if len(lines) == 0 {
		return nil
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

func promised(p *listedPackage) bool {
	if p.DepOnly || p.Name == "main" || p.Module == nil {
		return false
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, p.Module.Path), "/")
	for _, elem := range strings.Split(rel, "/") {
		switch elem {
		case "internal", "testdata", "examples", "cmd", "bench":
			return false
		}
	}
	return true
}

type listedPackage struct {
	ImportPath string
	Name       string
	Dir        string
	Export     string
	GoFiles    []string
	DepOnly    bool
	Module     *struct{ Path, GoVersion string }
	Error      *struct{ Err string }
}

// load lists the packages patterns match in dir and their dependencies,
// building each one's export data.
func load(dir string, patterns ...string) ([]*listedPackage, error) {
	return goList(dir, append([]string{"-export", "-deps",
		"-json=ImportPath,Name,Dir,Export,GoFiles,DepOnly,Module,Error"}, patterns...)...)
}

// goList runs "go list -e" with args in dir and decodes the packages it
// lists; a package go list could not load is an error.
func goList(dir string, args ...string) ([]*listedPackage, error) {
	args = append([]string{"list", "-e"}, args...)
	// "go" from PATH: go test puts its own toolchain first there, so the
	// export data is the format this binary's importer reads.
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("apicheck: go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []*listedPackage
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		p := new(listedPackage)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("apicheck: go list output: %v", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("apicheck: %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// features type-checks pkgs from source, their imports coming from the
// export data of all (the packages load listed), and returns their
// features, sorted.
func features(pkgs, all []*listedPackage) ([]string, error) {
	exports := map[string]string{}
	for _, p := range all {
		exports[p.ImportPath] = p.Export
	}
	lookup := func(path string) (io.ReadCloser, error) {
		if exports[path] == "" {
			return nil, fmt.Errorf("apicheck: no export data for %q", path)
		}
		return os.Open(exports[path])
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", lookup)
	w := &walker{deprecated: map[string]bool{}}
	var files [][]*ast.File
	for _, p := range pkgs {
		fs, err := parseFiles(fset, p)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			w.collectDeprecated(p.ImportPath, f)
		}
		files = append(files, fs)
	}
	var lines []string
	for i, p := range pkgs {
		conf := types.Config{
			Importer: imp,
			Sizes:    types.SizesFor("gc", runtime.GOARCH),
		}
		if p.Module != nil && p.Module.GoVersion != "" {
			conf.GoVersion = "go" + p.Module.GoVersion
		}
		tp, err := conf.Check(p.ImportPath, fset, files[i], nil)
		if err != nil {
			return nil, fmt.Errorf("apicheck: %s: %v", p.ImportPath, err)
		}
		lines = append(lines, w.walk(tp)...)
	}
	sort.Strings(lines)
	return lines, nil
}

// parseFiles parses p's Go files, with their comments.
func parseFiles(fset *token.FileSet, p *listedPackage) ([]*ast.File, error) {
	var files []*ast.File
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("apicheck: %v", err)
		}
		files = append(files, f)
	}
	return files, nil
}
