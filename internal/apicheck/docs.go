package apicheck

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// DocLeaks returns, one line each, the places where a doc comment a user
// reads (a promised package's doc, or the doc of one of its exported
// names, fields or interface methods) names what the user cannot see: an
// unexported identifier of the package, or an internal package. root is
// the repository root.
//
// An unexported identifier counts when it is written as code: camelCase
// or with a digit or underscore (closeGate, listMerged, bareShapes), or
// followed by "(" (wrap(...)); a plain lower-case word such as "table" is
// English as often as it is a name, and is let through, as is a name the
// package also writes as a string (an attribute of its item layout).
func DocLeaks(root string) ([]string, error) {
	pkgs, err := goList(root, "-json=ImportPath,Name,Dir,GoFiles,Module,Error", "./...", "./ddbtest/...")
	if err != nil {
		return nil, err
	}
	var leaks []string
	fset := token.NewFileSet()
	for _, p := range pkgs {
		if !promised(p) {
			continue
		}
		files, err := parseFiles(fset, p)
		if err != nil {
			return nil, err
		}
		leaks = append(leaks, docLeaks(fset, root, files)...)
	}
	sort.Strings(leaks)
	return leaks, nil
}

// internalRef is a reference to one of ddbkit's internal packages.
var internalRef = regexp.MustCompile(`\binternal/\w+|\b(ddb|backend|valid|memtable|itemsize|iamrec|difftest|dynamodblocal|apicheck|backendtest)\.[A-Za-z_]\w*`)

var word = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*\(?`)

func docLeaks(fset *token.FileSet, root string, files []*ast.File) []string {
	hidden := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				hidden[d.Name.Name] = !d.Name.IsExported()
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						hidden[s.Name.Name] = !s.Name.IsExported()
					case *ast.ValueSpec:
						for _, n := range s.Names {
							hidden[n.Name] = !n.IsExported()
						}
					}
				}
			}
		}
	}
	// A name the package also writes as a string (an attribute of its item
	// layout, such as expiresAt) is a name the user sees in the table.
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if l, ok := n.(*ast.BasicLit); ok && l.Kind == token.STRING {
				if v, err := strconv.Unquote(l.Value); err == nil {
					delete(hidden, v)
				}
			}
			return true
		})
	}
	var leaks []string
	check := func(what string, docs ...*ast.CommentGroup) {
		for _, cg := range docs {
			if cg == nil {
				continue
			}
			for _, c := range cg.List {
				text := c.Text
				pos := fset.Position(c.Pos())
				file, _ := filepath.Rel(root, pos.Filename)
				var found []string
				found = append(found, internalRef.FindAllString(text, -1)...)
				for _, w := range word.FindAllString(text, -1) {
					name, call := strings.CutSuffix(w, "(")
					if hidden[name] && (call || codeLike(name)) {
						found = append(found, name)
					}
				}
				for _, n := range found {
					leaks = append(leaks, fmt.Sprintf("%s:%d: the doc of %s names %s", file, pos.Line, what, n))
				}
			}
		}
	}
	for _, f := range files {
		check("the package", f.Doc)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || (d.Recv != nil && !exportedRecv(d.Recv)) {
					continue
				}
				check(d.Name.Name, d.Doc)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						check(s.Name.Name, d.Doc, s.Doc, s.Comment)
						checkMembers(s, check)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								check(n.Name, d.Doc, s.Doc, s.Comment)
								break
							}
						}
					}
				}
			}
		}
	}
	return dedupe(leaks)
}

// checkMembers checks the exported fields of a struct type and the
// methods of an interface type.
func checkMembers(s *ast.TypeSpec, check func(string, ...*ast.CommentGroup)) {
	var fields *ast.FieldList
	switch t := s.Type.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		return
	}
	for _, f := range fields.List {
		exported := len(f.Names) == 0 // embedded: its doc is read too
		for _, n := range f.Names {
			exported = exported || n.IsExported()
		}
		if exported {
			check(s.Name.Name+"'s member", f.Doc, f.Comment)
		}
	}
}

func exportedRecv(r *ast.FieldList) bool {
	if len(r.List) == 0 {
		return false
	}
	t := r.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}

// codeLike reports whether a lower-case name reads as code, not English.
func codeLike(name string) bool {
	for i, r := range name {
		if i > 0 && (unicode.IsUpper(r) || unicode.IsDigit(r) || r == '_') {
			return true
		}
	}
	return false
}

func dedupe(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
