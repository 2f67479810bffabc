package difftest

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ddbkit/ddbkit"
)

// GoSource renders v as a Go expression that evaluates to an equal value,
// for the printed regression tests: composite literals with their zero
// fields left out, typed constants converted (todo.Priority("high")),
// pointers to non-structs through P, times through time.Date, and contexts
// as ctx (see [Ctx]). A value it cannot render (an unexported field, a
// func, a channel) comes out in fmt's %#v inside a comment, which the
// compiler then reports.
func GoSource(v any) string {
	if ctx, ok := v.(context.Context); ok {
		return ctxSource(ctx)
	}
	return source(reflect.ValueOf(v), true)
}

// ctxSource renders a context the run drew: ctx, Canceled() or either under
// an idempotency key.
func ctxSource(ctx context.Context) string {
	s := "ctx"
	if ctx.Err() != nil {
		s = "difftest.Canceled()"
	}
	if key, ok := ddbkit.IdempotencyKey(ctx); ok {
		s = fmt.Sprintf("ddbkit.WithIdempotencyKey(%s, %s)", s, strconv.Quote(key))
	}
	return s
}

// pkgPath matches the import paths reflect writes into the names of
// instantiated generic types ("ddbkit.Page[github.com/ddbkit/ddbkit/todo.Todo]").
var pkgPath = regexp.MustCompile(`(?:[\w.\-]+/)+`)

// typeName returns t as Go source names it in a file that imports t's
// package under its own name.
func typeName(t reflect.Type) string {
	return pkgPath.ReplaceAllString(t.String(), "")
}

var (
	timeType = reflect.TypeFor[time.Time]()
	ctxType  = reflect.TypeFor[context.Context]()
)

// source renders v; typed says whether the expression must carry v's type
// (it need not where the context gives it, as for a struct field).
func source(v reflect.Value, typed bool) string {
	if !v.IsValid() {
		return "nil"
	}
	t := v.Type()
	if t.Implements(ctxType) && v.CanInterface() && (t.Kind() != reflect.Interface && t.Kind() != reflect.Pointer || !v.IsNil()) {
		return ctxSource(v.Interface().(context.Context))
	}
	named := t.PkgPath() != "" && t.Name() != ""
	conv := func(lit string) string {
		if typed && (named || needsConversion(t)) {
			return typeName(t) + "(" + lit + ")"
		}
		return lit
	}
	switch t.Kind() {
	case reflect.Bool:
		return conv(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if t == reflect.TypeFor[time.Duration]() {
			return durationSource(time.Duration(v.Int()))
		}
		return conv(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return conv(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		return conv(strconv.FormatFloat(v.Float(), 'g', -1, t.Bits()))
	case reflect.String:
		return conv(strconv.Quote(v.String()))
	case reflect.Interface:
		if v.IsNil() {
			return "nil"
		}
		return source(v.Elem(), true)
	case reflect.Pointer:
		if v.IsNil() {
			return "nil"
		}
		if t.Elem().Kind() == reflect.Struct && t.Elem() != timeType {
			return "&" + source(v.Elem(), true)
		}
		return "difftest.P(" + source(v.Elem(), true) + ")"
	case reflect.Struct:
		if t == timeType {
			return timeSource(v)
		}
		var fields []string
		for i := range t.NumField() {
			f := v.Field(i)
			if f.IsZero() {
				continue
			}
			if !t.Field(i).IsExported() {
				return opaque(v)
			}
			fields = append(fields, t.Field(i).Name+": "+source(f, false))
		}
		return typeName(t) + "{" + strings.Join(fields, ", ") + "}"
	case reflect.Slice:
		if v.IsNil() {
			return conv("nil")
		}
		fallthrough
	case reflect.Array:
		elems := make([]string, v.Len())
		for i := range elems {
			elems[i] = source(v.Index(i), false)
		}
		return typeName(t) + "{" + strings.Join(elems, ", ") + "}"
	case reflect.Map:
		if v.IsNil() {
			return conv("nil")
		}
		type kv struct{ k, v string }
		var kvs []kv
		for it := v.MapRange(); it.Next(); {
			kvs = append(kvs, kv{source(it.Key(), false), source(it.Value(), false)})
		}
		slices.SortFunc(kvs, func(a, b kv) int { return strings.Compare(a.k, b.k) })
		elems := make([]string, len(kvs))
		for i, e := range kvs {
			elems[i] = e.k + ": " + e.v
		}
		return typeName(t) + "{" + strings.Join(elems, ", ") + "}"
	}
	return opaque(v)
}

// needsConversion reports whether an untyped constant (or nil) would take
// another type than t where nothing gives it one (in an interface, say).
func needsConversion(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Float64, reflect.String:
		return false
	}
	return true
}

func opaque(v reflect.Value) string {
	if v.CanInterface() {
		return fmt.Sprintf("/* %#v */", v.Interface())
	}
	return fmt.Sprintf("/* unexported %s */", typeName(v.Type()))
}

func timeSource(v reflect.Value) string {
	tm := v.Interface().(time.Time)
	loc := "time.UTC"
	if name, off := tm.Zone(); tm.Location() != time.UTC || off != 0 {
		loc = fmt.Sprintf("time.FixedZone(%q, %d)", name, off)
	}
	return fmt.Sprintf("time.Date(%d, %d, %d, %d, %d, %d, %d, %s)",
		tm.Year(), tm.Month(), tm.Day(), tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), loc)
}

func durationSource(d time.Duration) string {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "time.Hour"}, {time.Minute, "time.Minute"}, {time.Second, "time.Second"}, {time.Millisecond, "time.Millisecond"}} {
		if d != 0 && d%u.d == 0 {
			return fmt.Sprintf("%d * %s", d/u.d, u.name)
		}
	}
	return fmt.Sprintf("time.Duration(%d)", int64(d))
}

// P returns a pointer to v: the printed tests write optional fields
// (patches) with it.
func P[T any](v T) *T { return &v }

// Canceled returns a context that is already canceled: the printed tests
// write with it what a run drew as a canceled context.
func Canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}
