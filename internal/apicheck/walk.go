package apicheck

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// walker writes the features of one package at a time, as cmd/api's
// Walker does.
type walker struct {
	// deprecated holds the names whose doc comment has a "Deprecated:"
	// paragraph, as keys of deprecatedKey: a name rather than a position,
	// since a promoted method may come from another package's export data.
	deprecated map[string]bool

	pkg   *types.Package // the package walked
	scope []string       // the prefix of each line, "pkg P" first
	lines []string
}

func (w *walker) walk(pkg *types.Package) []string {
	w.pkg, w.lines = pkg, nil
	w.scope = []string{"pkg " + pkg.Path()}
	names := pkg.Scope().Names()
	for _, name := range names {
		if obj := pkg.Scope().Lookup(name); obj.Exported() {
			w.emitObj(obj)
		}
	}
	return w.lines
}

func (w *walker) emitf(format string, args ...any) {
	w.lines = append(w.lines, strings.Join(w.scope, ", ")+", "+fmt.Sprintf(format, args...))
}

func (w *walker) pushScope(s string) (pop func()) {
	w.scope = append(w.scope, s)
	return func() { w.scope = w.scope[:len(w.scope)-1] }
}

func (w *walker) emitObj(obj types.Object) {
	switch obj := obj.(type) {
	case *types.Const:
		if w.isDeprecated(obj.Pkg(), obj.Name()) {
			w.emitf("const %s //deprecated", obj.Name())
		}
		w.emitf("const %s %s", obj.Name(), w.typeString(obj.Type()))
		short, exact := obj.Val().String(), obj.Val().ExactString()
		if short == exact {
			w.emitf("const %s = %s", obj.Name(), short)
		} else {
			w.emitf("const %s = %s  // %s", obj.Name(), short, exact)
		}
	case *types.Var:
		if w.isDeprecated(obj.Pkg(), obj.Name()) {
			w.emitf("var %s //deprecated", obj.Name())
		}
		w.emitf("var %s %s", obj.Name(), w.typeString(obj.Type()))
	case *types.TypeName:
		w.emitType(obj)
	case *types.Func:
		if w.isDeprecated(obj.Pkg(), obj.Name()) {
			w.emitf("func %s //deprecated", obj.Name())
		}
		sig := obj.Type().(*types.Signature)
		var buf strings.Builder
		buf.WriteString(obj.Name())
		w.writeTypeParams(&buf, sig.TypeParams(), true)
		w.writeSignature(&buf, sig)
		w.emitf("func %s", buf.String())
	default:
		panic(fmt.Sprintf("apicheck: unknown object %v", obj))
	}
}

func (w *walker) emitType(obj *types.TypeName) {
	name := obj.Name()
	if w.isDeprecated(obj.Pkg(), name) {
		w.emitf("type %s //deprecated", name)
	}
	if alias, ok := obj.Type().(*types.Alias); ok {
		var buf strings.Builder
		buf.WriteString(name)
		w.writeTypeParams(&buf, alias.TypeParams(), true)
		w.emitf("type %s = %s", buf.String(), w.typeString(alias.Rhs()))
		return
	}
	typ := obj.Type().(*types.Named)
	if tparams := typ.TypeParams(); tparams != nil {
		var buf strings.Builder
		buf.WriteString(name)
		w.writeTypeParams(&buf, tparams, true)
		name = buf.String()
	}
	switch u := typ.Underlying().(type) {
	case *types.Struct:
		w.emitStructType(obj.Name(), name, u)
	case *types.Interface:
		w.emitIfaceType(obj.Name(), name, u)
		return // its methods are its own lines
	default:
		w.emitf("type %s %s", name, w.typeString(u))
	}

	// The method sets of T and *T, the latter's own methods only: promoted
	// methods count, as in cmd/api, since a caller calls them on T.
	seen := map[string]bool{}
	for _, t := range []types.Type{typ, types.NewPointer(typ)} {
		mset := types.NewMethodSet(t)
		for i := range mset.Len() {
			m := mset.At(i)
			if m.Obj().Exported() && !seen[m.Obj().Name()] {
				seen[m.Obj().Name()] = true
				w.emitMethod(typ, m)
			}
		}
	}
}

func (w *walker) emitStructType(typeName, name string, typ *types.Struct) {
	line := fmt.Sprintf("type %s struct", name)
	w.emitf("%s", line)
	defer w.pushScope(line)()
	for i := range typ.NumFields() {
		f := typ.Field(i)
		if !f.Exported() {
			continue
		}
		dep := w.isDeprecated(w.pkg, typeName+"."+f.Name())
		if f.Anonymous() {
			if dep {
				w.emitf("embedded %s //deprecated", w.typeString(f.Type()))
			}
			w.emitf("embedded %s", w.typeString(f.Type()))
			continue
		}
		if dep {
			w.emitf("%s //deprecated", f.Name())
		}
		w.emitf("%s %s", f.Name(), w.typeString(f.Type()))
	}
}

// emitIfaceType writes one line per exported method, then either the list
// of all the methods' names, which changes when a method is added (a
// change that breaks an implementation), or "unexported methods" when the
// package alone can implement it.
func (w *walker) emitIfaceType(typeName, name string, typ *types.Interface) {
	pop := w.pushScope("type " + name + " interface")
	var names []string
	complete := true
	mset := types.NewMethodSet(typ)
	for i := range mset.Len() {
		m := mset.At(i).Obj().(*types.Func)
		if !m.Exported() {
			complete = false
			continue
		}
		names = append(names, m.Name())
		if w.isMethodDeprecated(m) {
			w.emitf("%s //deprecated", m.Name())
		}
		var buf strings.Builder
		buf.WriteString(m.Name())
		w.writeSignature(&buf, m.Type().(*types.Signature))
		w.emitf("%s", buf.String())
	}
	if !complete {
		w.emitf("unexported methods")
	}
	pop()
	if !complete {
		return
	}
	if !typ.IsMethodSet() {
		// A constraint: its type set is its API.
		w.emitf("type %s %s", name, w.typeString(typ))
		return
	}
	if len(names) == 0 {
		w.emitf("type %s interface {}", name)
		return
	}
	sort.Strings(names)
	w.emitf("type %s interface { %s }", name, strings.Join(names, ", "))
}

func (w *walker) emitMethod(recv *types.Named, m *types.Selection) {
	sig := m.Type().(*types.Signature)
	var r strings.Builder
	if _, ok := sig.Recv().Type().(*types.Pointer); ok {
		r.WriteString("*")
	}
	r.WriteString(recv.Obj().Name())
	// A generic type's receiver shows its parameters by the names the
	// method declares, which its signature uses.
	if rtp := sig.RecvTypeParams(); rtp != nil && len(m.Index()) == 1 {
		w.writeTypeParams(&r, rtp, false)
	} else {
		w.writeTypeParams(&r, recv.TypeParams(), false)
	}
	fn := m.Obj().(*types.Func)
	if w.isMethodDeprecated(fn) {
		w.emitf("method (%s) %s //deprecated", r.String(), fn.Name())
	}
	var buf strings.Builder
	buf.WriteString(fn.Name())
	w.writeSignature(&buf, sig)
	w.emitf("method (%s) %s", r.String(), buf.String())
}

// isMethodDeprecated reports whether the declaration of m, in whichever
// package, is deprecated.
func (w *walker) isMethodDeprecated(m *types.Func) bool {
	recv := m.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch t := t.(type) {
	case *types.Named:
		return w.isDeprecated(m.Pkg(), t.Obj().Name()+"."+m.Name())
	case *types.Alias:
		return w.isDeprecated(m.Pkg(), t.Obj().Name()+"."+m.Name())
	}
	return false
}

func (w *walker) isDeprecated(pkg *types.Package, name string) bool {
	return pkg != nil && w.deprecated[pkg.Path()+"."+name]
}

// collectDeprecated records the deprecated names of f, a file of package
// path: "Name" at package level, "Type.Name" for a method, a field or an
// interface's method.
func (w *walker) collectDeprecated(path string, f *ast.File) {
	mark := func(name string) { w.deprecated[path+"."+name] = true }
	markFields := func(typeName string, fields *ast.FieldList) {
		if fields == nil {
			return
		}
		for _, field := range fields.List {
			if !isDeprecated(field.Doc) {
				continue
			}
			for _, id := range field.Names {
				mark(typeName + "." + id.Name)
			}
			if len(field.Names) == 0 {
				if id := embeddedName(field.Type); id != "" {
					mark(typeName + "." + id)
				}
			}
		}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !isDeprecated(d.Doc) {
				continue
			}
			if d.Recv == nil || len(d.Recv.List) == 0 {
				mark(d.Name.Name)
			} else if base := embeddedName(d.Recv.List[0].Type); base != "" {
				mark(base + "." + d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.ValueSpec:
					if isDeprecated(d.Doc) || isDeprecated(s.Doc) {
						for _, id := range s.Names {
							mark(id.Name)
						}
					}
				case *ast.TypeSpec:
					if isDeprecated(d.Doc) || isDeprecated(s.Doc) {
						mark(s.Name.Name)
					}
					switch t := s.Type.(type) {
					case *ast.StructType:
						markFields(s.Name.Name, t.Fields)
					case *ast.InterfaceType:
						markFields(s.Name.Name, t.Methods)
					}
				}
			}
		}
	}
}

// embeddedName is the name of the type T, *T, p.T or T[P] denotes.
func embeddedName(x ast.Expr) string {
	for {
		switch t := x.(type) {
		case *ast.StarExpr:
			x = t.X
		case *ast.IndexExpr:
			x = t.X
		case *ast.IndexListExpr:
			x = t.X
		case *ast.SelectorExpr:
			return t.Sel.Name
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// isDeprecated reports whether doc has a paragraph starting "Deprecated:",
// the convention go doc and staticcheck follow.
func isDeprecated(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, para := range strings.Split(doc.Text(), "\n\n") {
		if strings.HasPrefix(strings.TrimSpace(para), "Deprecated:") {
			return true
		}
	}
	return false
}

func (w *walker) typeString(t types.Type) string {
	var buf strings.Builder
	w.writeType(&buf, t)
	return buf.String()
}

func (w *walker) writeTypeParams(buf *strings.Builder, tparams *types.TypeParamList, withConstraints bool) {
	if tparams.Len() == 0 {
		return
	}
	buf.WriteByte('[')
	for i := range tparams.Len() {
		if i > 0 {
			buf.WriteString(", ")
		}
		tp := tparams.At(i)
		buf.WriteString(tp.Obj().Name())
		if withConstraints {
			buf.WriteByte(' ')
			w.writeType(buf, tp.Constraint())
		}
	}
	buf.WriteByte(']')
}

// writeSignature writes (params) results, the types without their names:
// a parameter's name is no part of the API.
func (w *walker) writeSignature(buf *strings.Builder, sig *types.Signature) {
	w.writeParams(buf, sig.Params(), sig.Variadic())
	switch res := sig.Results(); res.Len() {
	case 0:
	case 1:
		buf.WriteByte(' ')
		w.writeType(buf, res.At(0).Type())
	default:
		buf.WriteByte(' ')
		w.writeParams(buf, res, false)
	}
}

func (w *walker) writeParams(buf *strings.Builder, t *types.Tuple, variadic bool) {
	buf.WriteByte('(')
	for i := range t.Len() {
		if i > 0 {
			buf.WriteString(", ")
		}
		typ := t.At(i).Type()
		if variadic && i == t.Len()-1 {
			buf.WriteString("...")
			typ = typ.(*types.Slice).Elem()
		}
		w.writeType(buf, typ)
	}
	buf.WriteByte(')')
}

// writeType writes t as Go source does, another package's names qualified
// by its package name and this package's bare; an untyped constant's type
// is "ideal-int" and so on, as in cmd/api.
func (w *walker) writeType(buf *strings.Builder, t types.Type) {
	switch t := t.(type) {
	case *types.Basic:
		if t.Info()&types.IsUntyped != 0 {
			switch t.Kind() {
			case types.UntypedBool:
				buf.WriteString("ideal-bool")
			case types.UntypedInt:
				buf.WriteString("ideal-int")
			case types.UntypedRune:
				buf.WriteString("ideal-char")
			case types.UntypedFloat:
				buf.WriteString("ideal-float")
			case types.UntypedComplex:
				buf.WriteString("ideal-complex")
			case types.UntypedString:
				buf.WriteString("ideal-string")
			default:
				buf.WriteString(t.Name())
			}
			return
		}
		buf.WriteString(t.Name())
	case *types.Array:
		fmt.Fprintf(buf, "[%d]", t.Len())
		w.writeType(buf, t.Elem())
	case *types.Slice:
		buf.WriteString("[]")
		w.writeType(buf, t.Elem())
	case *types.Pointer:
		buf.WriteByte('*')
		w.writeType(buf, t.Elem())
	case *types.Map:
		buf.WriteString("map[")
		w.writeType(buf, t.Key())
		buf.WriteByte(']')
		w.writeType(buf, t.Elem())
	case *types.Chan:
		switch t.Dir() {
		case types.SendRecv:
			buf.WriteString("chan ")
		case types.SendOnly:
			buf.WriteString("chan<- ")
		case types.RecvOnly:
			buf.WriteString("<-chan ")
		}
		// chan (<-chan T) needs its parentheses.
		if c, ok := t.Elem().(*types.Chan); ok && c.Dir() == types.RecvOnly && t.Dir() != types.SendOnly {
			buf.WriteByte('(')
			w.writeType(buf, c)
			buf.WriteByte(')')
		} else {
			w.writeType(buf, t.Elem())
		}
	case *types.Signature:
		buf.WriteString("func")
		w.writeSignature(buf, t)
	case *types.Struct:
		buf.WriteString("struct{")
		for i := range t.NumFields() {
			if i > 0 {
				buf.WriteString("; ")
			} else {
				buf.WriteByte(' ')
			}
			f := t.Field(i)
			if !f.Anonymous() {
				buf.WriteString(f.Name())
				buf.WriteByte(' ')
			}
			w.writeType(buf, f.Type())
			if tag := t.Tag(i); tag != "" {
				buf.WriteByte(' ')
				buf.WriteString(strconv.Quote(tag))
			}
			if i == t.NumFields()-1 {
				buf.WriteByte(' ')
			}
		}
		buf.WriteByte('}')
	case *types.Interface:
		if t.IsImplicit() {
			// [T ~int | ~string]: the constraint as written.
			w.writeType(buf, t.EmbeddedType(0))
			return
		}
		var elems []string
		for i := range t.NumEmbeddeds() {
			elems = append(elems, w.typeString(t.EmbeddedType(i)))
		}
		for i := range t.NumExplicitMethods() {
			m := t.ExplicitMethod(i)
			var b strings.Builder
			b.WriteString(m.Name())
			w.writeSignature(&b, m.Type().(*types.Signature))
			elems = append(elems, b.String())
		}
		if len(elems) == 0 {
			buf.WriteString("interface{}")
			return
		}
		buf.WriteString("interface{ " + strings.Join(elems, "; ") + " }")
	case *types.Union:
		for i := range t.Len() {
			if i > 0 {
				buf.WriteString(" | ")
			}
			term := t.Term(i)
			if term.Tilde() {
				buf.WriteByte('~')
			}
			w.writeType(buf, term.Type())
		}
	case *types.Named:
		w.writeTypeName(buf, t.Obj())
		w.writeTypeArgs(buf, t.TypeArgs())
	case *types.Alias:
		w.writeTypeName(buf, t.Obj())
		w.writeTypeArgs(buf, t.TypeArgs())
	case *types.TypeParam:
		buf.WriteString(t.Obj().Name())
	case *types.Tuple:
		w.writeParams(buf, t, false)
	default:
		panic(fmt.Sprintf("apicheck: unknown type %T", t))
	}
}

func (w *walker) writeTypeName(buf *strings.Builder, obj *types.TypeName) {
	if pkg := obj.Pkg(); pkg != nil && pkg != w.pkg {
		buf.WriteString(pkg.Name())
		buf.WriteByte('.')
	}
	buf.WriteString(obj.Name())
}

func (w *walker) writeTypeArgs(buf *strings.Builder, args *types.TypeList) {
	if args.Len() == 0 {
		return
	}
	buf.WriteByte('[')
	for i := range args.Len() {
		if i > 0 {
			buf.WriteString(", ")
		}
		w.writeType(buf, args.At(i))
	}
	buf.WriteByte(']')
}
