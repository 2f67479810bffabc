package ddb

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Codec encodes and decodes the items of one layout struct T: a struct whose
// fields carry dynamodbav tags, as attributevalue reads them. It gives what
// attributevalue.MarshalMap and UnmarshalMap give (codec_test.go holds them
// to each other on random values and items), at close to the cost of code
// written by hand for each layout: the fields are planned once per type, and
// the attribute types ddbkit writes (S into a string, BOOL into a bool, an
// integer N into an int, L of S into a []string, L of M into a slice of
// structs, NULL into the zero value) are read and written directly.
//
// Everything else goes through attributevalue, so nothing is decoded
// differently: a field whose attribute has another type (a string set, a
// decimal, a number where a string belongs) is decoded by it, and one whose
// Go type or tag options the plan does not know (maps, pointers, sets,
// unixtime, a type with only one of Marshaler and Unmarshaler) makes the
// whole type go through it. A field type that implements both
// attributevalue.Marshaler (on its value) and Unmarshaler (on its pointer)
// is called directly, as attributevalue calls it.
//
// One difference is deliberate: attributevalue also fills a field from an
// attribute whose name matches the field's only case-insensitively, and
// when two attributes do ("createdAt" and "CreatedAt"), the field gets the
// one its map iteration meets last. A Codec matches names exactly, so an
// item always decodes to the same value.
type Codec[T any] struct{ p *plan }

// NewCodec returns the codec of T, which must be a struct type.
func NewCodec[T any]() Codec[T] {
	typ := reflect.TypeFor[T]()
	if typ.Kind() != reflect.Struct {
		panic(fmt.Sprintf("ddb: NewCodec of %v, which is not a struct", typ))
	}
	return Codec[T]{p: planOf(typ)}
}

// Encode returns the item attributevalue.MarshalMap makes of *v: a string
// is an S ("" included), a bool a BOOL, an integer an N, a nil slice NULL
// and any other an L; an omitempty field is left out when it is zero.
func (c Codec[T]) Encode(v *T) (Item, error) {
	if c.p.encWhole {
		return attributevalue.MarshalMap(v)
	}
	return c.p.encode(reflect.ValueOf(v).Elem())
}

// Decode decodes item, read from table t, into *out as
// attributevalue.UnmarshalMap does: attributes the struct does not name are
// ignored, missing ones leave their field as it is. An attribute that
// cannot be decoded into its field gives a *ddbkit.CorruptItemError naming
// it.
func (c Codec[T]) Decode(t Table, item Item, out *T) error {
	if c.p.decWhole {
		return Unmarshal(t, item, out)
	}
	rv := reflect.ValueOf(out).Elem()
	if len(item) < len(c.p.fields) {
		// Fewer attributes than fields (a wide layout read for a narrow
		// kind of item): look the attributes up, not the fields. On an
		// error, the loop below finds the attribute to blame.
		ok := true
		for name, av := range item {
			if i, known := c.p.index[name]; known && c.p.fields[i].decode(av, rv) != nil {
				ok = false
				break
			}
		}
		if ok {
			return nil
		}
	}
	for _, i := range c.p.byName {
		f := &c.p.fields[i]
		av, ok := item[f.name]
		if !ok {
			continue
		}
		if err := f.decode(av, rv); err != nil {
			return Corrupt(t, item, f.name, "cannot decode a %s value: %v", attrType(av), err)
		}
	}
	return nil
}

// kind is how a field is encoded and decoded.
type kind uint8

const (
	kGeneric kind = iota // by attributevalue, the field alone
	kString              // S
	kBool                // BOOL
	kInt                 // N holding an integer
	kStrings             // L of S
	kStructs             // L of M, each a planned struct
	kCustom              // an attributevalue.Marshaler and Unmarshaler
)

type field struct {
	name      string
	index     []int
	omitEmpty bool
	kind      kind
	elem      *plan // kStructs: the element's plan
}

// plan is the fields of one struct type, in declaration order.
type plan struct {
	fields []field
	// byName orders the fields by attribute name, the order Decode tries
	// them in: of several corrupt attributes, it names the first by name,
	// as ddb.Unmarshal does, whatever order a layout declares them in.
	byName []int
	index  map[string]int // a field's position by its attribute name
	// encWhole is set when some field is not of a kind the plan encodes,
	// decWhole when the plan cannot say which field an attribute fills
	// (two fields of one name, an embedded pointer) or how (tag options):
	// attributevalue then encodes, or decodes, the whole item.
	encWhole, decWhole bool
}

var plans sync.Map // reflect.Type → *plan

var (
	unmarshalerType = reflect.TypeFor[attributevalue.Unmarshaler]()
	marshalerType   = reflect.TypeFor[attributevalue.Marshaler]()
	stringsType     = reflect.TypeFor[[]string]()
	timeType        = reflect.TypeFor[time.Time]()
)

func planOf(typ reflect.Type) *plan {
	if p, ok := plans.Load(typ); ok {
		return p.(*plan)
	}
	p := &plan{}
	p.collect(typ, nil)
	p.byName = make([]int, len(p.fields))
	for i := range p.byName {
		p.byName[i] = i
	}
	slices.SortFunc(p.byName, func(a, b int) int { return strings.Compare(p.fields[a].name, p.fields[b].name) })
	p.index = make(map[string]int, len(p.fields))
	for i, f := range p.fields {
		p.index[f.name] = i
	}
	seen := map[string]bool{}
	for _, f := range p.fields {
		if seen[f.name] {
			// Two fields of one name: Go's embedding rules decide, as
			// attributevalue applies them.
			p.encWhole, p.decWhole = true, true
		}
		seen[f.name] = true
		switch {
		case f.kind == kGeneric:
			p.encWhole = true
		case f.kind == kStructs:
			p.encWhole = p.encWhole || f.elem.encWhole
		}
	}
	actual, _ := plans.LoadOrStore(typ, p)
	return actual.(*plan)
}

// collect adds the fields of struct type typ, reached through index.
func (p *plan) collect(typ reflect.Type, index []int) {
	for i := range typ.NumField() {
		sf := typ.Field(i)
		tag := sf.Tag.Get("dynamodbav")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		idx := append(append([]int(nil), index...), i)
		if sf.Anonymous && name == "" {
			if sf.Type.Kind() == reflect.Struct {
				p.collect(sf.Type, idx) // flattened, as attributevalue does
				continue
			}
			if !sf.IsExported() {
				continue
			}
			p.encWhole, p.decWhole = true, true // an embedded pointer or non-struct
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		f := field{name: name, index: idx, kind: kindOf(sf.Type)}
		switch opts {
		case "":
		case "omitempty":
			f.omitEmpty = true
		default: // sets, unixtime, nullempty, string: attributevalue's
			f.kind = kGeneric
			p.encWhole, p.decWhole = true, true
		}
		if f.kind == kStructs {
			f.elem = planOf(sf.Type.Elem())
		}
		p.fields = append(p.fields, f)
	}
}

func kindOf(t reflect.Type) kind {
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		switch m, u := t.Implements(marshalerType), reflect.PointerTo(t).Implements(unmarshalerType); {
		case m && u:
			return kCustom
		case m || u || reflect.PointerTo(t).Implements(marshalerType):
			return kGeneric // one direction only, or a pointer receiver
		}
	}
	switch t.Kind() {
	case reflect.String:
		return kString
	case reflect.Bool:
		return kBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return kInt
	case reflect.Slice:
		e := t.Elem()
		if e.Implements(marshalerType) || reflect.PointerTo(e).Implements(marshalerType) ||
			reflect.PointerTo(e).Implements(unmarshalerType) {
			return kGeneric
		}
		switch e.Kind() {
		case reflect.String:
			return kStrings
		case reflect.Struct:
			if e.ConvertibleTo(timeType) {
				return kGeneric
			}
			return kStructs
		}
	}
	return kGeneric
}

var null = &types.AttributeValueMemberNULL{Value: true}

func (p *plan) encode(rv reflect.Value) (Item, error) {
	item := make(Item, len(p.fields))
	for i := range p.fields {
		f := &p.fields[i]
		fv := rv.FieldByIndex(f.index)
		var av types.AttributeValue
		switch f.kind {
		case kString:
			s := fv.String()
			if s == "" && f.omitEmpty {
				continue
			}
			av = &types.AttributeValueMemberS{Value: s}
		case kBool:
			b := fv.Bool()
			if !b && f.omitEmpty {
				continue
			}
			av = &types.AttributeValueMemberBOOL{Value: b}
		case kInt:
			n := fv.Int()
			if n == 0 && f.omitEmpty {
				continue
			}
			av = &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
		case kCustom:
			if f.omitEmpty && isZero(fv) {
				continue
			}
			if (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && fv.IsNil() {
				av = null // attributevalue's nil, before any Marshaler
				break
			}
			var err error
			if av, err = fv.Interface().(attributevalue.Marshaler).MarshalDynamoDBAttributeValue(); err != nil {
				return nil, err
			}
			if av == nil {
				return nil, fmt.Errorf("ddb: %v.MarshalDynamoDBAttributeValue returned a nil attribute value", fv.Type())
			}
		case kStrings, kStructs:
			if fv.IsNil() {
				if f.omitEmpty {
					continue
				}
				av = null
				break
			}
			l := make([]types.AttributeValue, fv.Len())
			for j := range l {
				if f.kind == kStrings {
					l[j] = &types.AttributeValueMemberS{Value: fv.Index(j).String()}
				} else {
					m, err := f.elem.encode(fv.Index(j))
					if err != nil {
						return nil, err
					}
					l[j] = &types.AttributeValueMemberM{Value: m}
				}
			}
			av = &types.AttributeValueMemberL{Value: l}
		}
		item[f.name] = av
	}
	return item, nil
}

// isZero is attributevalue's test of a zero value for omitempty.
func isZero(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Map, reflect.Slice:
		return v.IsNil()
	case reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Array:
		return v.Len() == 0
	}
	return false
}

// decode decodes av into the field of struct rv.
func (f *field) decode(av types.AttributeValue, rv reflect.Value) error {
	fv := rv.FieldByIndex(f.index)
	if f.kind == kCustom {
		return fv.Addr().Interface().(attributevalue.Unmarshaler).UnmarshalDynamoDBAttributeValue(av)
	}
	if _, isNull := av.(*types.AttributeValueMemberNULL); isNull && f.kind != kGeneric {
		fv.SetZero()
		return nil
	}
	switch f.kind {
	case kString:
		if v, ok := av.(*types.AttributeValueMemberS); ok {
			fv.SetString(v.Value)
			return nil
		}
	case kBool:
		if v, ok := av.(*types.AttributeValueMemberBOOL); ok {
			fv.SetBool(v.Value)
			return nil
		}
	case kInt:
		if v, ok := av.(*types.AttributeValueMemberN); ok {
			if n, err := strconv.ParseInt(v.Value, 10, 64); err == nil && !fv.OverflowInt(n) {
				fv.SetInt(n)
				return nil
			}
		}
	case kStrings:
		if v, ok := av.(*types.AttributeValueMemberL); ok && decodeStrings(v.Value, fv) {
			return nil
		}
	case kStructs:
		if v, ok := av.(*types.AttributeValueMemberL); ok && f.decodeStructs(v.Value, fv) {
			return nil
		}
	}
	return decoder.Decode(av, fv.Addr().Interface())
}

// decodeStrings sets fv to the strings of l, if they all are.
func decodeStrings(l []types.AttributeValue, fv reflect.Value) bool {
	s := make([]string, len(l))
	for i, e := range l {
		v, ok := e.(*types.AttributeValueMemberS)
		if !ok {
			return false
		}
		s[i] = v.Value
	}
	if fv.Type() == stringsType {
		fv.Set(reflect.ValueOf(s))
	} else {
		fv.Set(reflect.ValueOf(s).Convert(fv.Type()))
	}
	return true
}

// decodeStructs sets fv to the structs of l, if every element is an M whose
// attributes decode without attributevalue's help.
func (f *field) decodeStructs(l []types.AttributeValue, fv reflect.Value) bool {
	if f.elem.decWhole {
		return false
	}
	out := reflect.MakeSlice(fv.Type(), len(l), len(l))
	for i, e := range l {
		m, ok := e.(*types.AttributeValueMemberM)
		if !ok {
			return false
		}
		ev := out.Index(i)
		for j := range f.elem.fields {
			ef := &f.elem.fields[j]
			av, ok := m.Value[ef.name]
			if !ok {
				continue
			}
			if ef.decode(av, ev) != nil {
				return false // attributevalue reports it, on the whole list
			}
		}
	}
	fv.Set(out)
	return true
}

// Planned reports whether the codec encodes and decodes T's well-typed
// items itself, without attributevalue's reflection: the domains' tests
// hold their layouts to it, so that none slows down unnoticed.
func (c Codec[T]) Planned() bool { return !c.p.encWhole && !c.p.decWhole }
