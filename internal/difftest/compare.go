package difftest

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/ddbkit/ddbkit"
)

var errorType = reflect.TypeFor[error]()

// Diff returns "" when mem and dyn are equal, else where and how they first
// differ. Equal is reflect.DeepEqual's equality, except that errors are
// equal when their texts and their ddbkit sentinels
// (ddbkit.MatchingSentinels) are, and times when they are the same instant
// written the same way (same zone). A nil slice or map differs from an
// empty one, as it does for reflect.DeepEqual.
func Diff(mem, dyn any) string {
	return diff("", reflect.ValueOf(mem), reflect.ValueOf(dyn))
}

// DiffErr compares two errors as Diff does.
func DiffErr(mem, dyn error) string {
	switch {
	case mem == nil && dyn == nil:
		return ""
	case mem == nil || dyn == nil:
		return fmt.Sprintf("error: memory %v, dynamo %v", mem, dyn)
	}
	if mem.Error() != dyn.Error() {
		return fmt.Sprintf("error text:\n  memory %q\n  dynamo %q", mem.Error(), dyn.Error())
	}
	ms, ds := ddbkit.MatchingSentinels(mem), ddbkit.MatchingSentinels(dyn)
	if !slices.Equal(ms, ds) {
		return fmt.Sprintf("error %q matches sentinels: memory %v, dynamo %v", mem.Error(), ms, ds)
	}
	return ""
}

func diff(path string, a, b reflect.Value) string {
	at := func(format string, args ...any) string {
		p := path
		if p == "" {
			p = "value"
		}
		return p + ": " + fmt.Sprintf(format, args...)
	}
	show := func(v reflect.Value) string {
		if !v.IsValid() {
			return "nil"
		}
		return source(v, true)
	}
	if !a.IsValid() || !b.IsValid() {
		if a.IsValid() == b.IsValid() {
			return ""
		}
		return at("memory %s, dynamo %s", show(a), show(b))
	}
	if a.Type() != b.Type() {
		return at("memory %s (%s), dynamo %s (%s)", show(a), typeName(a.Type()), show(b), typeName(b.Type()))
	}
	t := a.Type()
	if t.Implements(errorType) && a.CanInterface() && b.CanInterface() && (!nillable(t) || !a.IsNil() && !b.IsNil()) {
		if d := DiffErr(a.Interface().(error), b.Interface().(error)); d != "" {
			return at("%s", d)
		}
		return ""
	}
	switch t.Kind() {
	case reflect.Interface, reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() == b.IsNil() {
				return ""
			}
			return at("memory %s, dynamo %s", show(a), show(b))
		}
		if t.Kind() == reflect.Pointer && a.Pointer() == b.Pointer() {
			return ""
		}
		return diff(path, a.Elem(), b.Elem())
	case reflect.Struct:
		if t == timeType && a.CanInterface() {
			ta, tb := a.Interface().(time.Time), b.Interface().(time.Time)
			if !ta.Equal(tb) || ta.Format(time.RFC3339Nano) != tb.Format(time.RFC3339Nano) {
				return at("memory %s, dynamo %s", ta.Format(time.RFC3339Nano), tb.Format(time.RFC3339Nano))
			}
			return ""
		}
		for i := range t.NumField() {
			if d := diff(path+"."+t.Field(i).Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && a.IsNil() != b.IsNil() {
			return at("memory %s, dynamo %s (nil and empty differ)", show(a), show(b))
		}
		for i := range min(a.Len(), b.Len()) {
			if d := diff(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		if a.Len() != b.Len() {
			return at("memory has %d elements, dynamo %d:\n  memory %s\n  dynamo %s", a.Len(), b.Len(), show(a), show(b))
		}
		return ""
	case reflect.Map:
		if a.IsNil() != b.IsNil() {
			return at("memory %s, dynamo %s (nil and empty differ)", show(a), show(b))
		}
		keys := func(m reflect.Value) []string {
			var ks []string
			for _, k := range m.MapKeys() {
				ks = append(ks, source(k, true))
			}
			slices.Sort(ks)
			return ks
		}
		if ka, kb := keys(a), keys(b); !slices.Equal(ka, kb) {
			return at("keys: memory [%s], dynamo [%s]", strings.Join(ka, ", "), strings.Join(kb, ", "))
		}
		for it := a.MapRange(); it.Next(); {
			if d := diff(fmt.Sprintf("%s[%s]", path, source(it.Key(), true)), it.Value(), b.MapIndex(it.Key())); d != "" {
				return d
			}
		}
		return ""
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		if a.Pointer() != b.Pointer() {
			return at("memory and dynamo hold different %s values", t.Kind())
		}
		return ""
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return at("memory %s, dynamo %s", show(a), show(b))
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return at("memory %s, dynamo %s", show(a), show(b))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return at("memory %s, dynamo %s", show(a), show(b))
		}
	case reflect.Float32, reflect.Float64:
		if a.Float() != b.Float() {
			return at("memory %s, dynamo %s", show(a), show(b))
		}
	case reflect.Complex64, reflect.Complex128:
		if a.Complex() != b.Complex() {
			return at("memory %v, dynamo %v", a.Complex(), b.Complex())
		}
	case reflect.String:
		if a.String() != b.String() {
			return at("memory %s, dynamo %s", show(a), show(b))
		}
	}
	return ""
}

func nillable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
		return true
	}
	return false
}
