// Package fuzzcheck holds what the fuzz targets of every package share
// (issue 39): a raw DynamoDB item built from the fuzzer's bytes, and its
// encoding for seeds, so that a target starts from the legacy fixtures and
// reaches every attribute-value type, nil values included, in every
// attribute; and the checks of an error every decoder and validator
// returns: its sentinel, and that it echoes no more than a bounded prefix
// of its input, nor a token or a run of card digits.
//
// The interop shapes (Shapes) are seeds made from the legacy fixtures with
// f.Add, so that they follow the fixtures; testdata/fuzz/<Target>/ holds
// the inputs a run found (the regression seeds) and a few written by hand.
//
// Only tests import it.
package fuzzcheck

import (
	"encoding/binary"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// MaxInput bounds the fuzzer's input a target decodes: a DynamoDB item is
// at most 400 KB, and a decoder's work must stay in proportion to its
// input, which a target checks best on inputs a run can make many of.
const MaxInput = 64 << 10

// MaxEcho is the longest run of its input's bytes an error may repeat.
const MaxEcho = 200

// maxDepth bounds the nesting of lists and maps Item builds (DynamoDB's is
// 32): deeper adds nothing a decoder of these layouts reads.
const maxDepth = 4

// The type bytes of Item's encoding, one per attribute-value type; Nil is
// a nil value, and NilTyped a nil pointer of a member type, which only a
// caller's hand-built item holds (MemoryStore.Import's input).
const (
	tagS byte = iota
	tagN
	tagB
	tagBOOL
	tagNULL
	tagL
	tagM
	tagSS
	tagNS
	tagBS
	tagNil
	tagNilTyped
	numTags
)

// Item builds an item from data: a sequence of attributes, each a name
// and a value (see Encode). Any data makes an item (possibly empty):
// lengths past the end are cut to what is left, and a type byte is taken
// modulo the number of types.
func Item(data []byte) map[string]types.AttributeValue {
	r := reader{b: data}
	item := map[string]types.AttributeValue{}
	for len(r.b) > 0 {
		name := r.str()
		item[name] = r.value(0)
	}
	return item
}

// Encode is the data Item builds item from: for seeds.
func Encode(item map[string]types.AttributeValue) []byte {
	var b []byte
	for _, name := range slices.Sorted(maps.Keys(item)) {
		b = appendStr(b, name)
		b = appendValue(b, item[name])
	}
	return b
}

type reader struct{ b []byte }

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) bytes() []byte {
	n, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.b = nil
		return nil
	}
	r.b = r.b[k:]
	if n > uint64(len(r.b)) {
		n = uint64(len(r.b))
	}
	out := r.b[:n:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) str() string { return string(r.bytes()) }

func (r *reader) count() int { return int(r.byte()) }

func (r *reader) value(depth int) types.AttributeValue {
	tag := r.byte() % numTags
	if depth >= maxDepth && (tag == tagL || tag == tagM) {
		tag = tagNULL
	}
	switch tag {
	case tagS:
		return &types.AttributeValueMemberS{Value: r.str()}
	case tagN:
		return &types.AttributeValueMemberN{Value: r.str()}
	case tagB:
		return &types.AttributeValueMemberB{Value: r.bytes()}
	case tagBOOL:
		return &types.AttributeValueMemberBOOL{Value: r.byte()&1 == 1}
	case tagNULL:
		return &types.AttributeValueMemberNULL{Value: r.byte()&1 == 1}
	case tagL:
		n := r.count()
		l := []types.AttributeValue{}
		for i := 0; i < n && len(r.b) > 0; i++ {
			l = append(l, r.value(depth+1))
		}
		return &types.AttributeValueMemberL{Value: l}
	case tagM:
		n := r.count()
		m := map[string]types.AttributeValue{}
		for i := 0; i < n && len(r.b) > 0; i++ {
			name := r.str()
			m[name] = r.value(depth + 1)
		}
		return &types.AttributeValueMemberM{Value: m}
	case tagSS, tagNS:
		n := r.count()
		ss := []string{}
		for i := 0; i < n && len(r.b) > 0; i++ {
			ss = append(ss, r.str())
		}
		if tag == tagSS {
			return &types.AttributeValueMemberSS{Value: ss}
		}
		return &types.AttributeValueMemberNS{Value: ss}
	case tagBS:
		n := r.count()
		bs := [][]byte{}
		for i := 0; i < n && len(r.b) > 0; i++ {
			bs = append(bs, r.bytes())
		}
		return &types.AttributeValueMemberBS{Value: bs}
	case tagNil:
		return nil
	default: // tagNilTyped
		switch r.byte() % 3 {
		case 0:
			return (*types.AttributeValueMemberS)(nil)
		case 1:
			return (*types.AttributeValueMemberL)(nil)
		default:
			return (*types.AttributeValueMemberM)(nil)
		}
	}
}

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendValue(b []byte, v types.AttributeValue) []byte {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		if v == nil {
			return append(b, tagNilTyped, 0)
		}
		return appendStr(append(b, tagS), v.Value)
	case *types.AttributeValueMemberN:
		return appendStr(append(b, tagN), v.Value)
	case *types.AttributeValueMemberB:
		return appendStr(append(b, tagB), string(v.Value))
	case *types.AttributeValueMemberBOOL:
		return append(b, tagBOOL, boolByte(v.Value))
	case *types.AttributeValueMemberNULL:
		return append(b, tagNULL, boolByte(v.Value))
	case *types.AttributeValueMemberL:
		if v == nil {
			return append(b, tagNilTyped, 1)
		}
		b = append(b, tagL, byte(min(len(v.Value), 255)))
		for _, e := range v.Value[:min(len(v.Value), 255)] {
			b = appendValue(b, e)
		}
		return b
	case *types.AttributeValueMemberM:
		if v == nil {
			return append(b, tagNilTyped, 2)
		}
		names := slices.Sorted(maps.Keys(v.Value))
		names = names[:min(len(names), 255)]
		b = append(b, tagM, byte(len(names)))
		for _, n := range names {
			b = appendValue(appendStr(b, n), v.Value[n])
		}
		return b
	case *types.AttributeValueMemberSS:
		return appendStrs(append(b, tagSS), v.Value)
	case *types.AttributeValueMemberNS:
		return appendStrs(append(b, tagNS), v.Value)
	case *types.AttributeValueMemberBS:
		b = append(b, tagBS, byte(min(len(v.Value), 255)))
		for _, e := range v.Value[:min(len(v.Value), 255)] {
			b = appendStr(b, string(e))
		}
		return b
	}
	return append(b, tagNil)
}

func appendStrs(b []byte, ss []string) []byte {
	ss = ss[:min(len(ss), 255)]
	b = append(b, byte(len(ss)))
	for _, s := range ss {
		b = appendStr(b, s)
	}
	return b
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// Shapes returns, for each attribute of item and each interop shape, item
// with that attribute replaced: every DynamoDB type (NULL, a Number where
// a String is expected, a list of mixed shapes, a map, sets, nil), an
// empty and a huge string, and each time attribute (any attribute whose
// name is in times) without milliseconds, with an offset and lower-case.
// Each is a seed.
func Shapes(item map[string]types.AttributeValue, times ...string) []map[string]types.AttributeValue {
	huge := strings.Repeat("x", 5000)
	alts := []types.AttributeValue{
		&types.AttributeValueMemberNULL{Value: true},
		&types.AttributeValueMemberN{Value: "12"},
		&types.AttributeValueMemberN{Value: "1e400"},
		&types.AttributeValueMemberS{Value: ""},
		&types.AttributeValueMemberS{Value: huge},
		&types.AttributeValueMemberB{Value: []byte{0, 1}},
		&types.AttributeValueMemberBOOL{Value: true},
		&types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "a"}, &types.AttributeValueMemberN{Value: "1"}, &types.AttributeValueMemberNULL{Value: true}, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"a": &types.AttributeValueMemberBOOL{}}}}},
		&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"S": &types.AttributeValueMemberS{Value: "x"}}},
		&types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		&types.AttributeValueMemberNS{Value: []string{"1", "2"}},
		&types.AttributeValueMemberBS{Value: [][]byte{{1}}},
		nil,
		(*types.AttributeValueMemberS)(nil),
	}
	var out []map[string]types.AttributeValue
	with := func(name string, v types.AttributeValue) {
		m := maps.Clone(item)
		m[name] = v
		out = append(out, m)
	}
	for _, name := range slices.Sorted(maps.Keys(item)) {
		for _, v := range alts {
			with(name, v)
		}
		if slices.Contains(times, name) {
			for _, s := range []string{"2024-01-05T10:00:00Z", "2024-01-05T19:00:00+09:00", "2024-01-05t10:00:00.123456z", "2024-01-05T10:00:00", "2024-01-05", "1704448800000"} {
				with(name, &types.AttributeValueMemberS{Value: s})
			}
		}
	}
	return out
}

// Error fails t unless err matches sentinel and passes Echo.
func Error(t testing.TB, err, sentinel error, inputs ...string) {
	t.Helper()
	if !errors.Is(err, sentinel) {
		t.Fatalf("error %v, want one matching %v", err, sentinel)
	}
	Echo(t, err, inputs...)
}

// Echo fails t if err's message repeats more than MaxEcho consecutive
// bytes of any of inputs, or any run of 13 or more digits (a card
// number's length) of one, or any of inputs marked as a secret (see
// Secret) at all. A secret shorter than minSecret, or that another input
// holds, is not checked: the message's own text, or the other input it
// names, may hold it by chance. The message is what is logged and shown;
// a cause it wraps for errors.As (a decoder's own error) is not checked.
func Echo(t testing.TB, err error, inputs ...string) {
	t.Helper()
	if err != nil {
		echo(t, err.Error(), inputs)
	}
}

func echo(t testing.TB, msg string, inputs []string) {
	t.Helper()
	for _, in := range inputs {
		if s, ok := strings.CutPrefix(in, secretMark); ok {
			if len(s) >= minSecret && !slices.ContainsFunc(inputs, func(o string) bool { return o != in && strings.Contains(o, s) }) &&
				strings.Contains(msg, s) {
				t.Fatalf("error %q echoes a secret of its input", trim(msg))
			}
			continue
		}
		in, key := strings.CutPrefix(in, keyMark)
		for i := 0; i+MaxEcho < len(msg); i++ {
			if strings.Contains(in, msg[i:i+MaxEcho+1]) {
				t.Fatalf("error %q echoes more than %d bytes of its input", trim(msg), MaxEcho)
			}
		}
		if key {
			continue
		}
		for _, run := range digitRuns(in) {
			inKey := slices.ContainsFunc(inputs, func(o string) bool {
				return strings.HasPrefix(o, keyMark) && strings.Contains(o, run)
			})
			if !inKey && strings.Contains(msg, run) {
				t.Fatalf("error %q echoes a run of %d digits of its input", trim(msg), len(run))
			}
		}
	}
}

// Key marks s, among Echo's inputs, as a key value or an ID, which an
// error names to identify the item (a corrupt item's key, the ID not
// found): Echo checks only its length (echo.CutKey; a validator bounds
// an ID), and a run of digits another input shares with a key may show
// through it.
func Key(s string) string { return keyMark + s }

const (
	keyMark    = "key:"
	secretMark = "secret:"
	minSecret  = 16
)

// Secret marks s, among Echo's inputs, as a secret (a token, an
// idempotency key) that no error may repeat at all.
func Secret(s string) string { return secretMark + s }

// digitRuns are the runs of 13 or more ASCII digits in s.
func digitRuns(s string) []string {
	var runs []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= 13 {
			runs = append(runs, s[start:i])
		}
		start = -1
	}
	return runs
}

func trim(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// Strings are the strings item holds, at any depth, for Echo. The values
// of keyAttrs are marked as keys (see Key).
func Strings(item map[string]types.AttributeValue, keyAttrs ...string) []string {
	var out []string
	var walk func(v types.AttributeValue)
	walk = func(v types.AttributeValue) {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			if v != nil {
				out = append(out, v.Value)
			}
		case *types.AttributeValueMemberN:
			out = append(out, v.Value)
		case *types.AttributeValueMemberB:
			out = append(out, string(v.Value))
		case *types.AttributeValueMemberSS:
			out = append(out, v.Value...)
		case *types.AttributeValueMemberNS:
			out = append(out, v.Value...)
		case *types.AttributeValueMemberL:
			if v != nil {
				for _, e := range v.Value {
					walk(e)
				}
			}
		case *types.AttributeValueMemberM:
			if v != nil {
				for n, e := range v.Value {
					out = append(out, n)
					walk(e)
				}
			}
		}
	}
	for n, v := range item {
		out = append(out, n)
		from := len(out)
		walk(v)
		if slices.Contains(keyAttrs, n) { // of any type: RenderKey names it
			for i := from; i < len(out); i++ {
				out[i] = Key(out[i])
			}
		}
	}
	return out
}

// Stored reports whether item could be stored in a table whose key
// attributes are keyAttrs: each is a String, and not empty.
func Stored(item map[string]types.AttributeValue, keyAttrs ...string) bool {
	for _, a := range keyAttrs {
		if v, ok := item[a].(*types.AttributeValueMemberS); !ok || v == nil || v.Value == "" {
			return false
		}
	}
	return true
}

// RoundTrip holds a codec to issue 39's round trip: v, decoded from
// item, is written back by encode and read back by decode as norm(v)
// (norm drops what the writer does not keep, such as a time's
// nanoseconds); and an item in ddbkit's own shape (exactly what encode
// makes of v) reads back as v itself. A value encode refuses (a key it
// cannot build) has no shape of ddbkit's, and is not checked.
func RoundTrip[T any](t testing.TB, item map[string]types.AttributeValue, v T, encode func(T) (map[string]types.AttributeValue, error),
	decode func(map[string]types.AttributeValue) (T, error), norm func(T) T) {
	t.Helper()
	again, err := encode(v)
	if err != nil {
		return
	}
	back, err := decode(again)
	if err != nil {
		t.Fatalf("reading back %+v, written as %v: %v", v, again, err)
	}
	if want := norm(v); !reflect.DeepEqual(back, want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, want)
	}
	if reflect.DeepEqual(again, item) && !reflect.DeepEqual(back, v) {
		t.Fatalf("an item in ddbkit's own shape reads back as %+v, want %+v", back, v)
	}
}

// ReadItem is Item(data) as a read from DynamoDB could return it, for a
// decoder's target: false when data is over MaxInput, or the item holds a
// nil value anywhere (only a hand-built item holds one, which every
// Import refuses; see the Import targets).
func ReadItem(data []byte) (map[string]types.AttributeValue, bool) {
	if len(data) > MaxInput {
		return nil, false
	}
	item := Item(data)
	var ok func(v types.AttributeValue) bool
	ok = func(v types.AttributeValue) bool {
		switch v := v.(type) {
		case nil:
			return false
		case *types.AttributeValueMemberS:
			return v != nil
		case *types.AttributeValueMemberL:
			return v != nil && !slices.ContainsFunc(v.Value, func(e types.AttributeValue) bool { return !ok(e) })
		case *types.AttributeValueMemberM:
			if v == nil {
				return false
			}
			for _, e := range v.Value {
				if !ok(e) {
					return false
				}
			}
		}
		return true
	}
	for _, v := range item {
		if !ok(v) {
			return nil, false
		}
	}
	return item, true
}
