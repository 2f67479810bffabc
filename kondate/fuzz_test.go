package kondate_test

import (
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

// The fuzz targets of what kondate reads from outside: items another
// writer stored (decoded one at a time, and through MemoryStore.Import),
// cursors and refs callers hand back, dates, and every input type. Each
// asserts its properties, not only "no panic": the documented sentinel,
// the round trip of a decoded item through ddbkit's own layout, an
// unchanged store after refused input, and errors that echo at most
// maxEcho bytes of any input string and never a push token or a payment
// reference. Seeds: the legacy fixtures and ddbkit's own items (f.Add), the
// interop shapes and every crasher found (testdata/fuzz/<Target>/).

// maxEcho is the most bytes of one input string an error may repeat. The
// item's key (PK, SK) is the exception: an error names it in full, so that
// the item can be found, and DynamoDB bounds it (2,048 and 1,024 bytes).
const maxEcho = 200

// fuzzItemBytes bounds the items the targets build, so that no input costs
// time or memory out of proportion: every attribute value costs at least
// one byte of input, and nesting stops at fuzzDepth.
const (
	fuzzItemBytes = 1 << 17
	fuzzDepth     = 6
)

// itemReader builds attribute values from bytes: the fuzzer's input. Each
// value is a tag byte (its DynamoDB type: tagS…tagNil) and its contents;
// lengths and counts are uvarints, cut to what the input holds. wireItem
// writes the same format, for seeds.
type itemReader struct {
	b        []byte
	allowNil bool // tagNil reads as a nil attribute value, not NULL
}

const (
	tagS = iota
	tagN
	tagB
	tagBOOL
	tagNULL
	tagSS
	tagNS
	tagBS
	tagL
	tagM
	tagNil // a nil types.AttributeValue: only an item built by hand holds one
	tagCount
)

func (r *itemReader) n(max int) int {
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.b = nil
		return 0
	}
	r.b = r.b[k:]
	return int(min(v, uint64(max), uint64(len(r.b))))
}

func (r *itemReader) bytes() []byte {
	n := r.n(len(r.b))
	out := r.b[:n:n]
	r.b = r.b[n:]
	return out
}

func (r *itemReader) str() string { return string(r.bytes()) }

func (r *itemReader) value(depth int) types.AttributeValue {
	if len(r.b) == 0 {
		return &types.AttributeValueMemberNULL{Value: true}
	}
	tag := r.b[0] % tagCount
	r.b = r.b[1:]
	if depth >= fuzzDepth && (tag == tagL || tag == tagM) {
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
		return &types.AttributeValueMemberBOOL{Value: r.n(1) == 1}
	case tagSS, tagNS:
		ss := make([]string, r.n(len(r.b)))
		for i := range ss {
			ss[i] = r.str()
		}
		if tag == tagNS {
			return &types.AttributeValueMemberNS{Value: ss}
		}
		return &types.AttributeValueMemberSS{Value: ss}
	case tagBS:
		bs := make([][]byte, r.n(len(r.b)))
		for i := range bs {
			bs[i] = r.bytes()
		}
		return &types.AttributeValueMemberBS{Value: bs}
	case tagL:
		l := make([]types.AttributeValue, r.n(len(r.b)))
		for i := range l {
			l[i] = r.value(depth + 1)
		}
		return &types.AttributeValueMemberL{Value: l}
	case tagM:
		return &types.AttributeValueMemberM{Value: r.attrs(depth + 1)}
	case tagNil:
		if r.allowNil {
			return nil
		}
	}
	return &types.AttributeValueMemberNULL{Value: true}
}

func (r *itemReader) attrs(depth int) map[string]types.AttributeValue {
	n := r.n(len(r.b))
	m := make(map[string]types.AttributeValue, n)
	for range n {
		name := r.str()
		m[name] = r.value(depth)
	}
	return m
}

// itemOf reads one item from data.
func itemOf(data []byte, allowNil bool) map[string]types.AttributeValue {
	r := itemReader{b: data[:min(len(data), fuzzItemBytes)], allowNil: allowNil}
	return r.attrs(0)
}

// itemsOf reads a count, then that many items, from data.
func itemsOf(data []byte, allowNil bool) rawItems {
	r := itemReader{b: data[:min(len(data), fuzzItemBytes)], allowNil: allowNil}
	out := make(rawItems, r.n(8))
	for i := range out {
		out[i] = r.attrs(0)
	}
	return out
}

// wireItems writes items in itemReader's format, a count first.
func wireItems(items ...map[string]types.AttributeValue) []byte {
	b := binary.AppendUvarint(nil, uint64(len(items)))
	for _, it := range items {
		b = wireAttrs(b, it)
	}
	return b
}

// wireItem writes one item in itemReader's format.
func wireItem(item map[string]types.AttributeValue) []byte { return wireAttrs(nil, item) }

func wireAttrs(b []byte, m map[string]types.AttributeValue) []byte {
	b = binary.AppendUvarint(b, uint64(len(m)))
	for _, name := range slices.Sorted(mapsKeys(m)) {
		b = wireBytes(b, []byte(name))
		b = wireValue(b, m[name])
	}
	return b
}

func mapsKeys(m map[string]types.AttributeValue) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func wireBytes(b, s []byte) []byte { return append(binary.AppendUvarint(b, uint64(len(s))), s...) }

func wireValue(b []byte, v types.AttributeValue) []byte {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return wireBytes(append(b, tagS), []byte(v.Value))
	case *types.AttributeValueMemberN:
		return wireBytes(append(b, tagN), []byte(v.Value))
	case *types.AttributeValueMemberB:
		return wireBytes(append(b, tagB), v.Value)
	case *types.AttributeValueMemberBOOL:
		if v.Value {
			return append(b, tagBOOL, 1)
		}
		return append(b, tagBOOL, 0)
	case *types.AttributeValueMemberNULL:
		return append(b, tagNULL)
	case *types.AttributeValueMemberSS, *types.AttributeValueMemberNS:
		tag, ss := byte(tagSS), []string(nil)
		if n, ok := v.(*types.AttributeValueMemberNS); ok {
			tag, ss = tagNS, n.Value
		} else {
			ss = v.(*types.AttributeValueMemberSS).Value
		}
		b = binary.AppendUvarint(append(b, tag), uint64(len(ss)))
		for _, s := range ss {
			b = wireBytes(b, []byte(s))
		}
		return b
	case *types.AttributeValueMemberBS:
		b = binary.AppendUvarint(append(b, tagBS), uint64(len(v.Value)))
		for _, s := range v.Value {
			b = wireBytes(b, s)
		}
		return b
	case *types.AttributeValueMemberL:
		b = binary.AppendUvarint(append(b, tagL), uint64(len(v.Value)))
		for _, e := range v.Value {
			b = wireValue(b, e)
		}
		return b
	case *types.AttributeValueMemberM:
		return wireAttrs(append(b, tagM), v.Value)
	case nil:
		return append(b, tagNil)
	}
	panic("wireValue: unknown attribute value type")
}

// fuzzOptions make a store deterministic, with every index on.
func fuzzOptions(o *kondate.Options) {
	stepClock(o)
	kondate.AllIndexes(o)
	o.NewShareID = ddbkit.SeededULIDs(2, o.Clock)
}

// ownItems are the items ddbkit itself writes, of every kind: a memory
// store's export after one of each write.
func ownItems(tb testing.TB) rawItems {
	tb.Helper()
	ctx := context.Background()
	s := kondate.NewMemoryStore(fuzzOptions)
	const u = "u_01"
	must := func(_ any, err error) {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
	}
	r, err := s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: "麻婆豆腐", Ingredients: []kondate.Ingredient{{Name: "豆腐", Amount: "1丁"}, {Name: "塩"}},
		Steps: []string{"切る", "煮る"}, Tags: []string{"中華"}, Origin: "https://example.com/r"})
	must(r, err)
	set, err := s.CreateSet(ctx, u, kondate.NewSet{Title: "中華セット", Items: []kondate.SetItem{{RecipeID: r.ID, Title: r.Title}, {Title: "ご飯"}}, Tags: []string{"中華"}})
	must(set, err)
	must(s.ApplySet(ctx, u, kondate.PlanNext, set.ID))
	must(s.UpdatePlan(ctx, u, kondate.PlanCurrent, []kondate.SetItem{{Title: "カレー"}}))
	must(s.UpdateProfile(ctx, u, kondate.ProfilePatch{DisplayName: ptr("山田"), AvatarURL: ptr("https://example.com/a.png")}))
	sh, err := s.AddShoppingItem(ctx, u, kondate.NewShoppingItem{Name: "牛乳", Quantity: "1本"})
	must(sh, err)
	must(s.CompleteShoppingItem(ctx, u, sh.ID))
	must(s.AddShoppingItem(ctx, u, kondate.NewShoppingItem{Name: "卵"}))
	must(s.AddFridgeItem(ctx, u, kondate.NewFridgeItem{Name: "にんじん", Quantity: "2本", ExpiryDate: "2026-02-20"}))
	fr, err := s.AddFridgeItem(ctx, u, kondate.NewFridgeItem{Name: "豆腐"})
	must(fr, err)
	must(s.DeleteFridgeItem(ctx, u, fr.ID))
	must(s.AddCategory(ctx, u, kondate.ScopeBook, kondate.NewCategory{Name: "和食"}))
	must(s.AddCategory(ctx, u, kondate.ScopeCatalog, kondate.NewCategory{Name: "中華"}))
	must(s.AddCookLog(ctx, u, kondate.NewCookLog{Date: "2026-02-09", RecipeID: r.ID, Title: r.Title, Note: "辛め"}))
	pm, err := s.AddPaymentMethod(ctx, u, kondate.NewPaymentMethod{Provider: "stripe", ProviderRef: "pm_1NxYz", Brand: "visa", Last4: "4242"})
	must(pm, err)
	must(s.RecordPurchase(ctx, u, kondate.NewPurchase{TransactionID: "pi_1", PurchasedAt: time.Date(2026, 2, 9, 10, 0, 0, 123e6, time.UTC),
		ProductID: "premium", Amount: 480, Currency: "JPY", PaymentMethodID: pm.ID}))
	must(s.SetSubscription(ctx, u, kondate.Subscription{Plan: "premium", Status: "active", CurrentPeriodEnd: time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC)}))
	n, err := s.AddNotification(ctx, u, kondate.NewNotification{Kind: "info", Title: "ようこそ", Body: "はじめまして"})
	must(n, err)
	must(s.MarkNotificationRead(ctx, u, n.Ref))
	must(s.AddNotification(ctx, u, kondate.NewNotification{Kind: "info", Title: "未読"}))
	must(s.SetNotificationSettings(ctx, u, kondate.NotificationSettings{PushEnabled: true}))
	must(s.RegisterPushToken(ctx, u, kondate.PlatformIOS, "apns-token-0123456789abcdef"))
	must(s.Publish(ctx, u, kondate.KindRecipe, r.ID))
	must(s.Publish(ctx, u, kondate.KindSet, set.ID))
	must(s.SaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, r.ID))
	must(s.CreateShareLink(ctx, u, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: r.ID, AuthorName: "山田", SourceURL: "https://example.com/r"}))
	return s.Export()[kondate.DefaultTableName]
}

// fixtureItems are the seeds of the item targets: the seed's app's items
// (the legacy fixtures, corrupt ones included) and ddbkit's own.
func fixtureItems(tb testing.TB) rawItems {
	good, corrupt := legacyItems()
	out := slices.Concat(good, corrupt, appCatalog())
	return append(out, ownItems(tb)...)
}

// The kinds' key prefixes. FuzzDecodeItem's first byte picks one (or
// none), so that every decoder is reached whatever the fuzzer does to the
// keys.
var fuzzKinds = [][2]string{
	{"USER#", "PROFILE#"}, {"USER#", "RECIPE#"}, {"USER#", "SET#"}, {"USER#", "PLAN#"}, {"USER#", "SHOPPING#"},
	{"USER#", "FRIDGE#"}, {"USER#", "FRIDGE_DELETED#"}, {"USER#", "CATEGORY#"}, {"USER#", "COOKLOG#"},
	{"USER#", "PAYMENT_METHOD#"}, {"USER#", "PURCHASE#"}, {"USER#", "SUBSCRIPTION#ACTIVE"}, {"USER#", "NOTIFICATION#"},
	{"USER#", "NOTIFICATION_SETTINGS#"}, {"USER#", "PUSH_TOKEN#"}, {"USER#", "SAVED#"}, {"CATALOG#", "CREATED#"},
	{"CREATOR#", "CATALOG_"}, {"SHARE#", "META#"},
}

// withKind prefixes item's keys (when they are Strings) with kind's.
func withKind(item map[string]types.AttributeValue, kind byte) {
	if int(kind) >= len(fuzzKinds) {
		return
	}
	for i, a := range []string{"PK", "SK"} {
		p := fuzzKinds[kind][i]
		if s, ok := item[a].(*types.AttributeValueMemberS); ok && !strings.HasPrefix(s.Value, p) {
			item[a] = &types.AttributeValueMemberS{Value: p + s.Value}
		}
	}
}

// FuzzDecodeItem decodes any item as the stores read it. Every decoder
// returns a value or ErrCorruptItem; a value re-encodes in ddbkit's own
// layout to an item that decodes to the same value (times to the
// millisecond, in UTC, as ddbkit writes them), and that item re-encodes to
// itself.
func FuzzDecodeItem(f *testing.F) {
	for _, it := range fixtureItems(f) {
		f.Add(append([]byte{0xff}, wireItem(it)...))
	}
	s := kondate.NewMemoryStore(fuzzOptions)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		item := itemOf(data[1:], false)
		withKind(item, data[0])
		checkDecode(t, s, item)
	})
}

// checkDecode asserts FuzzDecodeItem's properties of item, and returns
// whether the stores read it (an item of no kind of the design reads as
// true: no operation reads it).
func checkDecode(t *testing.T, s *kondate.MemoryStore, item map[string]types.AttributeValue) bool {
	t.Helper()
	v, ok, err := kondate.DecodeItem(s, item)
	if !ok {
		return true
	}
	if err != nil {
		var ce *ddbkit.CorruptItemError
		if !errors.Is(err, ddbkit.ErrCorruptItem) || !errors.As(err, &ce) {
			t.Fatalf("decode: error %v (%T), want a *CorruptItemError", err, err)
		}
		checkEcho(t, err, item)
		return false
	}
	again, err := kondate.EncodeItem(v, item)
	if err != nil {
		t.Fatalf("decoded %#v, which ddbkit cannot write: %v", v, err)
	}
	v2, ok, err := kondate.DecodeItem(s, again)
	if !ok || err != nil {
		t.Fatalf("decoded %#v, written as %s, which reads as %v (a kind: %v)", v, render(again), err, ok)
	}
	if want := canonical(v); !reflect.DeepEqual(v2, want) {
		t.Fatalf("round trip through %s:\n got %#v\nwant %#v", render(again), v2, want)
	}
	if third, err := kondate.EncodeItem(v2, again); err != nil || !reflect.DeepEqual(third, again) {
		t.Fatalf("ddbkit's own item %s re-encodes as %s (%v)", render(again), render(third), err)
	}
	return true
}

// canonical is v as ddbkit writes and reads it back: its times in UTC, to
// the millisecond.
func canonical(v any) any {
	out := reflect.New(reflect.TypeOf(v)).Elem()
	out.Set(reflect.ValueOf(v))
	canonicalTimes(out)
	return out.Interface()
}

var timeType = reflect.TypeFor[time.Time]()

func canonicalTimes(v reflect.Value) {
	switch {
	case v.Type() == timeType:
		t := v.Interface().(time.Time)
		v.Set(reflect.ValueOf(t.UTC().Truncate(time.Millisecond)))
	case v.Kind() == reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				canonicalTimes(v.Field(i))
			}
		}
	}
}

// checkEcho asserts that err repeats at most maxEcho bytes of any string
// in item, no run of 13 or more digits (a card number) and no push token
// or payment reference of item. A *CorruptItemError's Key is left out: it
// names the item's key whole, so that the item can be found.
func checkEcho(t *testing.T, err error, item map[string]types.AttributeValue) {
	t.Helper()
	msg := err.Error()
	if ce := (*ddbkit.CorruptItemError)(nil); errors.As(err, &ce) {
		msg = strings.Replace(msg, ce.Key, "", 1)
	}
	var all []string
	for a, v := range item {
		walkStrings(a, v, func(s string) { all = append(all, s) })
	}
	for _, s := range all {
		checkEchoOf(t, msg, s)
	}
	checkDigits(t, msg, all)
	for _, a := range []string{"token", "providerRef"} {
		if s, ok := item[a].(*types.AttributeValueMemberS); ok && len(s.Value) >= 12 {
			// The same string in another attribute may be shown as that.
			n := 0
			for _, v := range item {
				if v, ok := v.(*types.AttributeValueMemberS); ok && v.Value == s.Value {
					n++
				}
			}
			if n == 1 && strings.Contains(msg, s.Value) {
				t.Fatalf("error repeats the %s %q: %q", a, s.Value, msg)
			}
		}
	}
}

// checkEchoOf asserts that msg holds no more than maxEcho bytes of s in a
// row.
func checkEchoOf(t *testing.T, msg, s string) {
	t.Helper()
	if len(msg) <= maxEcho || len(s) <= maxEcho {
		return
	}
	for i := 0; i+maxEcho < len(s); i++ {
		if strings.Contains(msg, s[i:i+maxEcho+1]) {
			t.Fatalf("error echoes more than %d bytes of a %d-byte input (from byte %d): %.300q…", maxEcho, len(s), i, msg)
		}
	}
}

// quoteEscape is an escape of strconv.Quote that ends in digits.
var quoteEscape = regexp.MustCompile(`\\(x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})`)

// checkDigits asserts that msg holds no run of 13 or more ASCII digits of
// the inputs: a card number, perhaps (13 to 19 digits; internal/echo masks
// such runs in every error, and leaves shorter ones, such as a date's).
func checkDigits(t *testing.T, msg string, inputs []string) {
	t.Helper()
	msg = quoteEscape.ReplaceAllString(msg, " ") // "\x00" then "1" is not a digit "001"
	for i := 0; i < len(msg); {
		j := i
		for j < len(msg) && '0' <= msg[j] && msg[j] <= '9' {
			j++
		}
		if j-i >= 13 && slices.ContainsFunc(inputs, func(s string) bool { return strings.Contains(s, msg[i:j]) }) {
			t.Fatalf("error repeats %d digits of the input: %q", j-i, msg)
		}
		i = max(j, i+1)
	}
}

// walkStrings calls fn with every string in v: attribute names, S, N, and
// the members of sets, lists and maps.
func walkStrings(name string, v types.AttributeValue, fn func(string)) {
	fn(name)
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		fn(v.Value)
	case *types.AttributeValueMemberN:
		fn(v.Value)
	case *types.AttributeValueMemberSS:
		for _, s := range v.Value {
			fn(s)
		}
	case *types.AttributeValueMemberNS:
		for _, s := range v.Value {
			fn(s)
		}
	case *types.AttributeValueMemberL:
		for _, e := range v.Value {
			walkStrings("", e, fn)
		}
	case *types.AttributeValueMemberM:
		for n, e := range v.Value {
			walkStrings(n, e, fn)
		}
	}
}

// FuzzImport imports any items into a memory store that holds the
// fixtures. Import succeeds, and every item is then exported as it was
// given and decodes, or it fails with ErrCorruptItem and the store is
// unchanged. An item it takes has keys DynamoDB could hold.
func FuzzImport(f *testing.F) {
	fixtures := fixtureItems(f)
	good, corrupt := legacyItems()
	for _, it := range fixtures {
		f.Add(wireItems(it))
	}
	f.Add(wireItems(good...))
	f.Add(wireItems(slices.Concat(good[:2], corrupt[:1])...))
	base := ownItems(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		items := itemsOf(data, true)
		s := kondate.NewMemoryStore(fuzzOptions)
		if err := s.Import(ddbkit.TableItems{kondate.DefaultTableName: base}); err != nil {
			t.Fatal(err)
		}
		before := s.Export()
		err := s.Import(ddbkit.TableItems{kondate.DefaultTableName: items})
		after := s.Export()
		if err != nil {
			if !errors.Is(err, ddbkit.ErrCorruptItem) {
				t.Fatalf("Import: error %v, want ErrCorruptItem", err)
			}
			for _, it := range items {
				checkEcho(t, err, it)
			}
			if !reflect.DeepEqual(after, before) {
				t.Fatalf("Import failed (%v) and changed the store", err)
			}
			return
		}
		got := map[[2]string]map[string]types.AttributeValue{}
		for _, it := range after[kondate.DefaultTableName] {
			got[keyOf(it)] = it
		}
		want := map[[2]string]map[string]types.AttributeValue{}
		for _, it := range items {
			want[keyOf(it)] = it // the last of a key wins, as PutItem's would
		}
		for k, it := range want {
			if !reflect.DeepEqual(got[k], it) {
				t.Fatalf("Import took %s, exported as %s", render(it), render(got[k]))
			}
			checkKeySizes(t, it)
			if !checkDecode(t, s, it) {
				t.Fatalf("Import took %s, which the stores cannot read", render(it))
			}
		}
	})
}

func keyOf(item map[string]types.AttributeValue) [2]string {
	var k [2]string
	for i, a := range []string{"PK", "SK"} {
		if s, ok := item[a].(*types.AttributeValueMemberS); ok {
			k[i] = s.Value
		}
	}
	return k
}

// checkKeySizes asserts that DynamoDB could hold item's keys: a partition
// key of at most 2,048 bytes and a sort key of at most 1,024, in the
// table and in the indexes.
func checkKeySizes(t *testing.T, item map[string]types.AttributeValue) {
	t.Helper()
	for a, max := range map[string]int{"PK": 2048, "SK": 1024, "GSI1PK": 2048, "GSI1SK": 1024, "GSI2PK": 2048, "GSI2SK": 1024, "GSI3PK": 2048, "GSI3SK": 1024} {
		if s, ok := item[a].(*types.AttributeValueMemberS); ok && len(s.Value) > max {
			t.Fatalf("Import took a %s of %d bytes, over DynamoDB's %d", a, len(s.Value), max)
		}
	}
}

// writeCorpus, set by -kondate.writecorpus, makes TestFuzzShapes write the
// interop shapes into testdata/fuzz/<Target>/ (shape-*), which go test
// then runs as seeds: run it after changing fuzzShapes.
var writeCorpus = flag.Bool("kondate.writecorpus", false, "write the fuzz targets' interop shapes under testdata/fuzz")

// fuzzShapes are items in the shapes another writer may store, one of
// each kind ddbkit writes (ownItems) per shape, the keys kept: every other
// attribute NULL, or of each DynamoDB type; Numbers where Strings are
// expected; lists of mixed shapes; times without milliseconds, with
// offsets, in lower case, out of range; empty and long strings; and the
// keys alone, long, or of another type.
func fuzzShapes(tb testing.TB) map[string]map[string]types.AttributeValue {
	long := strings.Repeat("x", 300) + "麻" // over maxEcho
	values := map[string]types.AttributeValue{
		"S-empty": S(""), "S-long": S(long), "N": N("42"), "N-bad": N("1e999999"), "B": &types.AttributeValueMemberB{Value: []byte{0, 1}},
		"BOOL": &types.AttributeValueMemberBOOL{Value: true}, "NULL": NULL, "SS": &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		"NS": &types.AttributeValueMemberNS{Value: []string{"1", "x"}}, "BS": &types.AttributeValueMemberBS{Value: [][]byte{{1}}},
		"L-mixed": L(S("豚肉 200g"), NULL, M("name", N("3"), "amount", NULL, "extra", L()), N("1"), L(S("x"))),
		"L-maps":  L(M("name", S("豆腐"), "amount", S("1丁")), M("recipeId", S("r_01"), "name", S("麻婆")), M()),
		"M":       M("S", S("x")), "S-card": S("4242424242424242"), "S-time-noms": S("2026-02-09T10:00:00Z"),
		"S-time-offset": S("2026-02-09T19:00:00+09:00"), "S-time-lower": S("2026-02-09t10:00:00.5z"),
		"S-time-local": S("2026-02-09T10:00:00"), "S-time-year0": S("0000-01-01T00:00:00Z"),
		"S-time-10000": S("9999-12-31T23:59:59.999999999-23:59"), "S-time-long": S("2026-02-09T10:00:00." + strings.Repeat("9", 300) + "Z"),
	}
	out := map[string]map[string]types.AttributeValue{}
	for _, own := range ownItems(tb) {
		pk, sk := own["PK"].(*types.AttributeValueMemberS).Value, own["SK"].(*types.AttributeValueMemberS).Value
		kind := strings.TrimRight(strings.SplitN(sk, "#", 2)[0], "_0123456789")
		if _, dup := out[kind+"-keys"]; dup {
			continue // one item of each kind
		}
		for vn, v := range values {
			item := map[string]types.AttributeValue{}
			for a := range own {
				item[a] = v
			}
			item["PK"], item["SK"] = own["PK"], own["SK"]
			out[kind+"-"+vn] = item
		}
		out[kind+"-keys"] = map[string]types.AttributeValue{"PK": own["PK"], "SK": own["SK"]}
		out[kind+"-keys-long"] = map[string]types.AttributeValue{"PK": S(pk + long), "SK": S(sk + long + "#" + long + long)}
		out[kind+"-keys-N"] = map[string]types.AttributeValue{"PK": N("1"), "SK": own["SK"]}
	}
	return out
}

// TestFuzzShapes runs the interop shapes through the item targets'
// checks, and writes them as seeds with -kondate.writecorpus.
func TestFuzzShapes(t *testing.T) {
	shapes := fuzzShapes(t)
	s := kondate.NewMemoryStore(fuzzOptions)
	for _, name := range slices.Sorted(maps.Keys(shapes)) {
		item := shapes[name]
		checkDecode(t, s, item)
		if !*writeCorpus {
			continue
		}
		writeSeed(t, "FuzzDecodeItem", "shape-"+name, append([]byte{0xff}, wireItem(item)...))
		if strings.Contains(name, "-keys") || strings.HasSuffix(name, "-NULL") || strings.HasSuffix(name, "-L-mixed") {
			writeSeed(t, "FuzzImport", "shape-"+name, wireItems(item)) // Import runs the decoders: the shapes of the keys suffice
		}
	}
	if *writeCorpus {
		for name, c := range map[string]string{"empty": "", "garbage": "garbage", "padded": "QUFB==", "unsafe": "a+b/c",
			"json": `[["PK","S","USER#u_03"],["SK","S","RECIPE#x"]]`, "long": strings.Repeat("A", 1000), "nul": "\x00", "utf8": "麻婆"} {
			for _, l := range []int{0, 7, 13, 24} { // plain recipes, catalog newest with a tag, sharded sets, secret recipes
				writeArgs(t, "FuzzCursor", fmt.Sprintf("shape-%s-%d", name, l), c, l)
			}
		}
		for name, r := range map[string]string{"empty": "", "no-hash": "2026-02-09T10:00:00Z", "empty-id": "2026-02-09T10:00:00Z#",
			"two-hashes": "2026-02-09T10:00:00Z#a#b", "offset": "2026-02-09T19:00:00+09:00#f_01", "lower": "2026-02-09t10:00:00z#n_01",
			"year10000": "9999-12-31T23:59:59-23:59#x", "year0": "0000-01-01T00:00:00Z#x", "leap-second": "2026-12-31T23:59:60Z#x",
			"long-id": "2026-02-09T10:00:00Z#" + strings.Repeat("x", 600), "long-time": strings.Repeat("9", 300) + "#x",
			"other-user": "USER#u_03#RECIPE#r_01", "card": "2026-02-09T10:00:00Z#4242424242424242"} {
			for which := range 2 {
				writeArgs(t, "FuzzRef", fmt.Sprintf("shape-%s-%d", name, which), r, which)
			}
		}
		nilAttr := map[string]types.AttributeValue{"PK": S("USER#u_01"), "SK": S("RECIPE#r_01"), "title": nil}
		writeSeed(t, "FuzzImport", "shape-nil-attribute", wireItems(nilAttr))
		writeSeed(t, "FuzzImport", "shape-nil-key", wireItems(map[string]types.AttributeValue{"PK": nil, "SK": S("x")}))
	}
}

// writeArgs writes one seed of a (string, int) target in go's corpus
// format.
func writeArgs(t *testing.T, target, name, s string, n int) {
	t.Helper()
	writeFile(t, target, name, fmt.Sprintf("go test fuzz v1\nstring(%q)\nint(%d)\n", s, n))
}

// writeSeed writes one seed of a []byte target in go's corpus format.
func writeSeed(t *testing.T, target, name string, data []byte) {
	t.Helper()
	writeFile(t, target, name, fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data))
}

func writeFile(t *testing.T, target, name, body string) {
	t.Helper()
	dir := filepath.Join("testdata", "fuzz", target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fuzzListing is one of kondate's listings, paged with a cursor.
type fuzzListing struct {
	name string
	list func(ctx context.Context, cursor string, limit int) ([]any, string, error)
}

// pageOf adapts a page for fuzzListing.
func pageOf[T any](p ddbkit.Page[T], err error) ([]any, string, error) {
	out := make([]any, len(p.Items))
	for i, v := range p.Items {
		out[i] = v
	}
	return out, p.Next, err
}

// fuzzListings are kondate's listings over stores holding a few items of
// each: plain, filtered by a tag, merged over catalog shards, and with a
// CursorSecret.
func fuzzListings(tb testing.TB) []fuzzListing {
	tb.Helper()
	plain := listingStore(tb, func(*kondate.Options) {})
	sharded := listingStore(tb, func(o *kondate.Options) { o.CatalogShards = 4 })
	secret := listingStore(tb, func(o *kondate.Options) { o.CursorSecret = []byte("0123456789abcdef0123456789abcdef") })
	const u = "u_01"
	po := func(c string, n int) ddbkit.PageOptions { return ddbkit.PageOptions{Cursor: c, Limit: n} }
	cq := func(c string, n int, tag string) kondate.CatalogQuery {
		return kondate.CatalogQuery{PageOptions: po(c, n), Tag: tag}
	}
	type L = fuzzListing
	var out []fuzzListing
	for _, st := range []struct {
		name string
		s    *kondate.MemoryStore
	}{{"", plain}, {"sharded-", sharded}, {"secret-", secret}} {
		s := st.s
		out = append(out,
			L{st.name + "recipes", func(ctx context.Context, c string, n int) ([]any, string, error) {
				return pageOf(s.ListRecipes(ctx, u, po(c, n)))
			}},
			L{st.name + "sets", func(ctx context.Context, c string, n int) ([]any, string, error) {
				return pageOf(s.ListSets(ctx, u, po(c, n)))
			}},
			L{st.name + "notifications", func(ctx context.Context, c string, n int) ([]any, string, error) {
				return pageOf(s.ListNotifications(ctx, u, po(c, n)))
			}},
			L{st.name + "cooklogs-month", func(ctx context.Context, c string, n int) ([]any, string, error) {
				return pageOf(s.ListCookLogsByMonth(ctx, u, "2026-02", po(c, n)))
			}},
			L{st.name + "cooklogs-day", func(ctx context.Context, c string, n int) ([]any, string, error) {
				return pageOf(s.ListCookLogsByDay(ctx, u, "2026-02-09", po(c, n)))
			}},
			L{st.name + "deleted-fridge", func(ctx context.Context, c string, n int) ([]any, string, error) {
				return pageOf(s.ListDeletedFridgeItems(ctx, u, po(c, n)))
			}},
			L{st.name + "catalog-newest", func(ctx context.Context, c string, n int) ([]any, string, error) {
				return pageOf(s.ListCatalogNewest(ctx, kondate.KindRecipe, cq(c, n, "")))
			}},
			L{st.name + "catalog-newest-tag", func(ctx context.Context, c string, n int) ([]any, string, error) {
				return pageOf(s.ListCatalogNewest(ctx, kondate.KindRecipe, cq(c, n, "中華")))
			}},
			L{st.name + "catalog-popular", func(ctx context.Context, c string, n int) ([]any, string, error) {
				return pageOf(s.ListCatalogPopular(ctx, kondate.KindRecipe, cq(c, n, "")))
			}},
			L{st.name + "catalog-popular-tag", func(ctx context.Context, c string, n int) ([]any, string, error) {
				return pageOf(s.ListCatalogPopular(ctx, kondate.KindRecipe, cq(c, n, "中華")))
			}},
			L{st.name + "catalog-creator", func(ctx context.Context, c string, n int) ([]any, string, error) {
				return pageOf(s.ListCatalogByCreator(ctx, u, kondate.KindRecipe, cq(c, n, "")))
			}},
			L{st.name + "saved", func(ctx context.Context, c string, n int) ([]any, string, error) {
				return pageOf(s.ListSaved(ctx, "u_02", kondate.KindRecipe, po(c, n)))
			}},
		)
	}
	return out
}

// listingStore is a memory store holding a few items of each listing.
func listingStore(tb testing.TB, opt func(*kondate.Options)) *kondate.MemoryStore {
	tb.Helper()
	ctx := context.Background()
	s := kondate.NewMemoryStore(fuzzOptions, opt)
	const u = "u_01"
	for i := range 5 {
		must := func(_ any, err error) {
			tb.Helper()
			if err != nil {
				tb.Fatal(err)
			}
		}
		var tags []string
		if i%2 == 0 {
			tags = []string{"中華"}
		}
		r, err := s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: fmt.Sprintf("r%d", i), Tags: tags})
		must(r, err)
		must(s.Publish(ctx, u, kondate.KindRecipe, r.ID))
		if i < 3 {
			must(s.SaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, r.ID))
		}
		must(s.CreateSet(ctx, u, kondate.NewSet{Title: fmt.Sprintf("s%d", i)}))
		must(s.AddNotification(ctx, u, kondate.NewNotification{Kind: "info", Title: fmt.Sprintf("n%d", i)}))
		must(s.AddCookLog(ctx, u, kondate.NewCookLog{Date: fmt.Sprintf("2026-02-%02d", 8+i%3), Title: fmt.Sprintf("c%d", i)}))
		f, err := s.AddFridgeItem(ctx, u, kondate.NewFridgeItem{Name: fmt.Sprintf("f%d", i)})
		must(f, err)
		must(s.DeleteFridgeItem(ctx, u, f.ID))
	}
	// Another user's items, which no cursor of u_01's may reach.
	must := func(_ any, err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	must(s.CreateRecipe(ctx, "u_03", kondate.NewRecipe{Title: "other"}))
	must(s.AddNotification(ctx, "u_03", kondate.NewNotification{Kind: "info", Title: "other"}))
	return s
}

// FuzzCursor pages every listing from any cursor. A cursor the listing
// issued gives the page after it; any other either fails with
// ErrInvalidCursor, or (without a CursorSecret, where cursors are
// forgeable within the caller's own listing) gives a run of the listing's
// own items, in order. A cursor of another listing, or one forged under
// a secret, always fails.
func FuzzCursor(f *testing.F) {
	ctx := context.Background()
	ls := fuzzListings(f)
	full := make([][]any, len(ls))
	issued := make([]map[string]int, len(ls)) // cursor: the position it pages from
	var cursors []string                      // the cursors issued, in listing order
	for i, l := range ls {
		issued[i] = map[string]int{"": 0}
		for _, n := range []int{1, 2} {
			c, pos := "", 0
			for {
				items, next, err := l.list(ctx, c, n)
				if err != nil {
					f.Fatalf("%s: %v", l.name, err)
				}
				if n == 1 {
					full[i] = append(full[i], items...)
				}
				if pos += len(items); next == "" {
					break
				}
				issued[i][next] = pos
				cursors = append(cursors, next)
				c = next
			}
		}
	}
	// Each cursor under its own listing, the next one, and the same one
	// on another store (plain, sharded, secret); mangled under its own.
	seen := map[int]bool{}
	for _, c := range cursors {
		i := slices.IndexFunc(issued, func(m map[string]int) bool { _, ok := m[c]; return ok })
		f.Add(c, i)
		f.Add(c, (i+1)%len(ls))
		f.Add(c, (i+len(ls)/3)%len(ls))
		if !seen[i] {
			seen[i] = true
			f.Add(c[:len(c)/2], i)
			f.Add(c+"A", i)
			f.Add(strings.ToUpper(c), i)
		}
	}
	f.Add("", 0)
	f.Add("garbage", 0)
	f.Add(strings.Repeat("QUFB", 100), 0)
	f.Fuzz(func(t *testing.T, cursor string, which int) {
		if len(cursor) > 1<<14 {
			return // bounded: a cursor is a few KB at most
		}
		i := int(uint(which) % uint(len(ls)))
		l := ls[i]
		items, next, err := l.list(ctx, cursor, 2)
		pos, mine := issued[i][cursor]
		if err != nil {
			if !errors.Is(err, ddbkit.ErrInvalidCursor) {
				t.Fatalf("%s: error %v, want ErrInvalidCursor", l.name, err)
			}
			if mine {
				t.Fatalf("%s: a cursor it issued fails: %v", l.name, err)
			}
			checkEchoOf(t, err.Error(), cursor)
			return
		}
		if mine {
			if want := full[i][pos:min(pos+2, len(full[i]))]; !reflect.DeepEqual(items, want) {
				t.Fatalf("%s: the page after an issued cursor is %v, want %v", l.name, items, want)
			}
			return
		}
		for j := range issued {
			if _, ok := issued[j][cursor]; ok && j != i {
				t.Fatalf("%s: a cursor of %s is taken", l.name, ls[j].name)
			}
		}
		if strings.HasPrefix(l.name, "secret-") {
			t.Fatalf("%s: a cursor it did not issue is taken, under a CursorSecret", l.name)
		}
		if len(items) > 0 {
			k := slices.IndexFunc(full[i], func(v any) bool { return reflect.DeepEqual(v, items[0]) })
			if k < 0 || k+len(items) > len(full[i]) || !reflect.DeepEqual(full[i][k:k+len(items)], items) {
				t.Fatalf("%s: a forged cursor gives %v, not a run of the listing's items", l.name, items)
			}
		}
		if next != "" {
			if _, _, err := l.list(ctx, next, 2); err != nil {
				t.Fatalf("%s: the Next cursor of a page fails: %v", l.name, err)
			}
		}
	})
}

// FuzzRef restores an archived fridge item, or marks a notification read,
// by any ref. A ref the store listed succeeds; any other fails with
// ErrInvalidArgument or ErrNotFound, and leaves the store unchanged.
func FuzzRef(f *testing.F) {
	ctx := context.Background()
	const u = "u_01"
	good, _ := legacyItems()
	base := slices.Concat(good, ownItems(f))
	s := kondate.NewMemoryStore(fuzzOptions)
	if err := s.Import(ddbkit.TableItems{kondate.DefaultTableName: base}); err != nil {
		f.Fatal(err)
	}
	refs := [2]map[string]bool{{}, {}}
	fr, err := s.ListDeletedFridgeItems(ctx, u, ddbkit.PageOptions{Limit: 100})
	if err != nil {
		f.Fatal(err)
	}
	for _, it := range fr.Items {
		refs[0][it.Ref] = true
	}
	ns, err := s.ListNotifications(ctx, u, ddbkit.PageOptions{Limit: 100})
	if err != nil {
		f.Fatal(err)
	}
	for _, n := range ns.Items {
		refs[1][n.Ref] = true
	}
	for which, rs := range refs {
		for r := range rs {
			f.Add(r, which)
			f.Add(r, 1-which)
			at, id, _ := strings.Cut(r, "#")
			f.Add(strings.TrimSuffix(at, "Z")+"+00:00#"+id, which)
			f.Add(at+"#"+id+"#x", which)
			f.Add(at, which)
			f.Add("#"+id, which)
		}
	}
	f.Add("", 0)
	f.Add("9999-12-31T23:59:59-23:59#x", 1)
	f.Add("2026-02-09T10:00:00Z#"+strings.Repeat("x", 600), 0)
	f.Fuzz(func(t *testing.T, ref string, which int) {
		which = int(uint(which) % 2)
		if len(ref) > 1<<14 {
			return
		}
		s := kondate.NewMemoryStore(fuzzOptions)
		if err := s.Import(ddbkit.TableItems{kondate.DefaultTableName: base}); err != nil {
			t.Fatal(err)
		}
		before := s.Export()
		var got string
		var err error
		if which == 0 {
			var it kondate.FridgeItem
			it, err = s.RestoreFridgeItem(ctx, u, ref)
			got = it.ID
		} else {
			var n kondate.Notification
			n, err = s.MarkNotificationRead(ctx, u, ref)
			got = n.Ref
		}
		if err == nil {
			if !refs[which][ref] {
				t.Fatalf("ref %q, which the store did not list, addresses %q", ref, got)
			}
			return
		}
		if refs[which][ref] {
			t.Fatalf("ref %q, as listed, fails: %v", ref, err)
		}
		if !errors.Is(err, ddbkit.ErrInvalidArgument) && !errors.Is(err, ddbkit.ErrNotFound) {
			t.Fatalf("ref %q: error %v, want ErrInvalidArgument or ErrNotFound", ref, err)
		}
		checkEchoOf(t, err.Error(), ref)
		if !reflect.DeepEqual(s.Export(), before) {
			t.Fatalf("ref %q failed (%v) and changed the store", ref, err)
		}
	})
}

// FuzzDate checks Date's methods on any string: Valid agrees with Time;
// a valid date is midnight UTC of itself (DateOf gives it back); AddDays
// and its inverse return it, or fail with ErrInvalidArgument and return it
// unchanged.
func FuzzDate(f *testing.F) {
	for _, d := range []string{"2026-02-09", "0001-01-01", "9999-12-31", "2024-02-29", "2026-02-29", "2026-2-9", "20260209",
		"2026-02-09T00:00:00Z", "", "２０２６-02-09", "+2026-02-09", "-001-01-01", "2026-13-01", "2026-00-10"} {
		f.Add(d, 1)
		f.Add(d, -1)
		f.Add(d, 3652059)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		d := kondate.Date(s)
		at, err := d.Time()
		if d.Valid() != (err == nil) {
			t.Fatalf("Date(%q).Valid() = %v, Time error %v", s, d.Valid(), err)
		}
		if err != nil {
			if !errors.Is(err, ddbkit.ErrInvalidArgument) {
				t.Fatalf("Date(%q).Time(): error %v, want ErrInvalidArgument", s, err)
			}
			checkEchoOf(t, err.Error(), s)
		} else if kondate.DateOf(at) != d || at.Location() != time.UTC || at.Hour()+at.Minute()+at.Second()+at.Nanosecond() != 0 {
			t.Fatalf("Date(%q).Time() = %v, which is not its midnight UTC", s, at)
		}
		later, err := d.AddDays(n)
		if err != nil {
			if !errors.Is(err, ddbkit.ErrInvalidArgument) || later != d {
				t.Fatalf("Date(%q).AddDays(%d) = %q, %v: want the date unchanged and ErrInvalidArgument", s, n, later, err)
			}
			checkEchoOf(t, err.Error(), s)
			return
		}
		if !later.Valid() {
			t.Fatalf("Date(%q).AddDays(%d) = %q, not a valid date", s, n, later)
		}
		if back, err := later.AddDays(-n); err != nil || back != d {
			t.Fatalf("Date(%q).AddDays(%d).AddDays(%d) = %q, %v", s, n, -n, back, err)
		}
	})
}

// inputReader draws a method's input from the fuzzer's bytes, and keeps
// every string it drew, for checkEcho.
type inputReader struct {
	itemReader
	drawn []string
}

func (r *inputReader) s() string {
	s := r.str()
	r.drawn = append(r.drawn, s)
	return s
}

// opt is a *string, or nil.
func (r *inputReader) opt() *string {
	if r.n(1) == 0 {
		return nil
	}
	return ptr(r.s())
}

func (r *inputReader) strs() []string {
	out := make([]string, r.n(kondate.MaxListLen+1))
	for i := range out {
		out[i] = r.s()
	}
	return out
}

func (r *inputReader) ingredients() []kondate.Ingredient {
	out := make([]kondate.Ingredient, r.n(kondate.MaxListLen+1))
	for i := range out {
		out[i] = kondate.Ingredient{Name: r.s(), Amount: r.s()}
	}
	return out
}

func (r *inputReader) items() []kondate.SetItem {
	out := make([]kondate.SetItem, r.n(kondate.MaxListLen+1))
	for i := range out {
		out[i] = kondate.SetItem{RecipeID: r.s(), Title: r.s()}
	}
	return out
}

// pick is one of vs, or (for the last choice) a string of the input.
func pick[T ~string](r *inputReader, vs ...T) T {
	if i := r.n(len(vs)); i < len(vs) {
		return vs[i]
	}
	return T(r.s())
}

// inputIDs are the IDs of the items of s (holding ownItems) that
// FuzzInput updates: a recipe, a set, a shopping item, a fridge item and
// a category of the book.
func inputIDs(tb testing.TB, s *kondate.MemoryStore) (rid, sid, shid, fid, cid string) {
	tb.Helper()
	ctx, u := context.Background(), "u_01"
	rs, _ := s.ListRecipes(ctx, u, ddbkit.PageOptions{})
	ss, _ := s.ListSets(ctx, u, ddbkit.PageOptions{})
	sh, _ := s.ListShoppingItems(ctx, u, ddbkit.PageOptions{})
	fr, _ := s.ListFridgeItems(ctx, u, ddbkit.PageOptions{})
	cs, _ := s.ListCategories(ctx, u, kondate.ScopeBook, ddbkit.PageOptions{})
	if len(rs.Items)*len(ss.Items)*len(sh.Items)*len(fr.Items)*len(cs.Items) == 0 {
		tb.Fatal("ownItems lacks an item to update")
	}
	return rs.Items[0].ID, ss.Items[0].ID, sh.Items[0].ID, fr.Items[0].ID, cs.Items[0].ID
}

// FuzzInput calls every write method with any input. Input a validator
// refuses fails with ErrInvalidArgument (ErrNotFound for an item of
// another user) and leaves the store unchanged; input it accepts is stored
// as given and read back equal to what the method returned. No error
// repeats more than maxEcho bytes of an input, a push token or a payment
// reference.
func FuzzInput(f *testing.F) {
	ctx := context.Background()
	const u = "u_01"
	base := ownItems(f)
	s0 := kondate.NewMemoryStore(fuzzOptions)
	if err := s0.Import(ddbkit.TableItems{kondate.DefaultTableName: base}); err != nil {
		f.Fatal(err)
	}
	rid, sid, shid, fid, cid := inputIDs(f, s0)
	for op := range fuzzOps {
		w := func(ss ...string) []byte { // op, own user, then the strings, each with a present flag where one is drawn
			b := []byte{byte(op), 0}
			for _, s := range ss {
				b = wireBytes(b, []byte(s))
			}
			return b
		}
		f.Add(w("麻婆豆腐", "2026-02-09", "visa", "4242"))
		f.Add(append(w(), bytesOf(0x01, 200)...))
		f.Add(w(strings.Repeat("x", 300), "4242424242424242", "2026-02-30"))
	}
	for _, seed := range validInputs() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		r := &inputReader{itemReader: itemReader{b: data[1:min(len(data), 1<<16)]}}
		op := int(data[0]) % fuzzOps
		user := u
		if r.n(1) == 1 {
			user = r.s()
		}
		s := kondate.NewMemoryStore(fuzzOptions, otherIDs)
		if err := s.Import(ddbkit.TableItems{kondate.DefaultTableName: base}); err != nil {
			t.Fatal(err)
		}
		before := s.Export()
		got, back, want, secret, err := fuzzOp(ctx, s, op, user, r, rid, sid, shid, fid, cid)
		if err != nil {
			// RecordPurchase of a transaction ID ownItems recorded with
			// other content is ErrAlreadyExists.
			if !errors.Is(err, ddbkit.ErrInvalidArgument) && !errors.Is(err, ddbkit.ErrNotFound) && (op != 13 || !errors.Is(err, ddbkit.ErrAlreadyExists)) {
				t.Fatalf("op %d: error %v, want ErrInvalidArgument or ErrNotFound", op, err)
			}
			msg := err.Error()
			for _, in := range r.drawn {
				checkEchoOf(t, msg, in)
			}
			checkDigits(t, msg, r.drawn)
			// A secret that another input holds may be shown as that one.
			shared := len(slices.DeleteFunc(slices.Clone(r.drawn), func(in string) bool { return !strings.Contains(in, secret) })) > 1
			if len(secret) >= 8 && !shared && strings.Contains(msg, secret) {
				t.Fatalf("op %d: error repeats a token or payment reference: %q", op, msg)
			}
			if !reflect.DeepEqual(s.Export(), before) {
				t.Fatalf("op %d refused its input (%v) and changed the store", op, err)
			}
			return
		}
		if want != nil {
			if w := want(); !reflect.DeepEqual(canonical(got), canonical(w)) {
				t.Fatalf("op %d stored %#v, want the input as given: %#v", op, got, w)
			}
		}
		stored, err := back()
		if err != nil || !reflect.DeepEqual(stored, got) {
			t.Fatalf("op %d returned %#v, read back as %#v (%v)", op, got, stored, err)
		}
	})
}

// otherIDs makes IDs other than the ones of ownItems, which the store
// imported.
func otherIDs(o *kondate.Options) {
	o.NewID, o.NewShareID = ddbkit.SeededULIDs(3, o.Clock), ddbkit.SeededULIDs(4, o.Clock)
}

func bytesOf(b byte, n int) []byte { return []byte(strings.Repeat(string([]byte{b}), n)) }

// fuzzOps is the number of write methods fuzzOp calls.
const fuzzOps = 20

// find returns the item of a listing with the given ID, or ErrNotFound.
func find[T any](p ddbkit.Page[T], err error, match func(T) bool) (any, error) {
	if err != nil {
		return nil, err
	}
	for _, v := range p.Items {
		if match(v) {
			return v, nil
		}
	}
	return nil, ddbkit.ErrNotFound
}

// fuzzOp calls write method op with input drawn from r. It returns the
// method's result, how to read it back, what the result must equal (the
// input, with the store's IDs and times; nil when the method changes part
// of an item), and the input that must never be echoed.
func fuzzOp(ctx context.Context, s *kondate.MemoryStore, op int, u string, r *inputReader, rid, sid, shid, fid, cid string) (got any, back func() (any, error), want func() any, secret string, err error) {
	one := ddbkit.PageOptions{Limit: 100}
	switch op {
	case 0:
		in := kondate.NewRecipe{Title: r.s(), Ingredients: r.ingredients(), Steps: r.strs(), Tags: r.strs(), Origin: r.s()}
		v, err := s.CreateRecipe(ctx, u, in)
		return v, func() (any, error) { return s.GetRecipe(ctx, u, v.ID) }, func() any {
			w := v
			w.Title, w.Ingredients, w.Steps, w.Tags, w.Origin = in.Title, orNil(in.Ingredients), orNil(in.Steps), orNil(in.Tags), in.Origin
			return w
		}, "", err
	case 1:
		p := kondate.RecipePatch{Title: r.opt(), Origin: r.opt()}
		if r.n(1) == 1 {
			p.Ingredients = ptr(r.ingredients())
		}
		if r.n(1) == 1 {
			p.Steps = ptr(r.strs())
		}
		if r.n(1) == 1 {
			p.Tags = ptr(r.strs())
		}
		v, err := s.UpdateRecipe(ctx, u, rid, p)
		return v, func() (any, error) { return s.GetRecipe(ctx, u, rid) }, func() any {
			w := v
			set(&w.Title, p.Title)
			set(&w.Origin, p.Origin)
			if p.Ingredients != nil {
				w.Ingredients = orNil(*p.Ingredients)
			}
			if p.Steps != nil {
				w.Steps = orNil(*p.Steps)
			}
			if p.Tags != nil {
				w.Tags = orNil(*p.Tags)
			}
			return w
		}, "", err
	case 2:
		in := kondate.NewSet{Title: r.s(), Items: r.items(), Tags: r.strs()}
		v, err := s.CreateSet(ctx, u, in)
		return v, func() (any, error) { return s.GetSet(ctx, u, v.ID) }, func() any {
			w := v
			w.Title, w.Items, w.Tags = in.Title, orNil(in.Items), orNil(in.Tags)
			return w
		}, "", err
	case 3:
		p := kondate.SetPatch{Title: r.opt()}
		if r.n(1) == 1 {
			p.Items = ptr(r.items())
		}
		if r.n(1) == 1 {
			p.Tags = ptr(r.strs())
		}
		v, err := s.UpdateSet(ctx, u, sid, p)
		return v, func() (any, error) { return s.GetSet(ctx, u, sid) }, func() any {
			w := v
			set(&w.Title, p.Title)
			if p.Items != nil {
				w.Items = orNil(*p.Items)
			}
			if p.Tags != nil {
				w.Tags = orNil(*p.Tags)
			}
			return w
		}, "", err
	case 4:
		slot, items := pick(r, kondate.PlanCurrent, kondate.PlanNext), r.items()
		v, err := s.UpdatePlan(ctx, u, slot, items)
		return v, func() (any, error) { return s.GetPlan(ctx, u, slot) }, func() any {
			w := v
			w.Slot, w.Items = slot, orNil(items)
			return w
		}, "", err
	case 5:
		in := kondate.NewShoppingItem{Name: r.s(), Quantity: r.s()}
		v, err := s.AddShoppingItem(ctx, u, in)
		return v, func() (any, error) {
				p, err := s.ListShoppingItems(ctx, u, one)
				return find(p, err, func(x kondate.ShoppingItem) bool { return x.ID == v.ID })
			}, func() any {
				w := v
				w.Name, w.Quantity = in.Name, in.Quantity
				return w
			}, "", err
	case 6:
		p := kondate.ShoppingPatch{Name: r.opt(), Quantity: r.opt()}
		v, err := s.UpdateShoppingItem(ctx, u, shid, p)
		return v, func() (any, error) {
				l, err := s.ListShoppingItems(ctx, u, one)
				return find(l, err, func(x kondate.ShoppingItem) bool { return x.ID == shid })
			}, func() any {
				w := v
				set(&w.Name, p.Name)
				set(&w.Quantity, p.Quantity)
				return w
			}, "", err
	case 7:
		in := kondate.NewFridgeItem{Name: r.s(), Quantity: r.s(), ExpiryDate: r.s()}
		v, err := s.AddFridgeItem(ctx, u, in)
		return v, func() (any, error) {
				p, err := s.ListFridgeItems(ctx, u, one)
				return find(p, err, func(x kondate.FridgeItem) bool { return x.ID == v.ID })
			}, func() any {
				w := v
				w.Name, w.Quantity, w.ExpiryDate = in.Name, in.Quantity, in.ExpiryDate
				return w
			}, "", err
	case 8:
		p := kondate.FridgePatch{Name: r.opt(), Quantity: r.opt(), ExpiryDate: r.opt()}
		v, err := s.UpdateFridgeItem(ctx, u, fid, p)
		return v, func() (any, error) {
				l, err := s.ListFridgeItems(ctx, u, one)
				return find(l, err, func(x kondate.FridgeItem) bool { return x.ID == fid })
			}, func() any {
				w := v
				set(&w.Name, p.Name)
				set(&w.Quantity, p.Quantity)
				set(&w.ExpiryDate, p.ExpiryDate)
				return w
			}, "", err
	case 9:
		scope, in := pick(r, kondate.ScopeBook, kondate.ScopeCatalog), kondate.NewCategory{Name: r.s()}
		v, err := s.AddCategory(ctx, u, scope, in)
		return v, func() (any, error) {
				p, err := s.ListCategories(ctx, u, scope, one)
				return find(p, err, func(x kondate.Category) bool { return x.ID == v.ID })
			}, func() any {
				w := v
				w.Scope, w.Name = scope, in.Name
				return w
			}, "", err
	case 10:
		p := kondate.CategoryPatch{Name: r.opt()}
		v, err := s.UpdateCategory(ctx, u, kondate.ScopeBook, cid, p)
		return v, func() (any, error) {
				l, err := s.ListCategories(ctx, u, kondate.ScopeBook, one)
				return find(l, err, func(x kondate.Category) bool { return x.ID == cid })
			}, func() any {
				w := v
				set(&w.Name, p.Name)
				return w
			}, "", err
	case 11:
		in := kondate.NewCookLog{Date: r.s(), RecipeID: r.s(), Title: r.s(), Note: r.s()}
		v, err := s.AddCookLog(ctx, u, in)
		return v, func() (any, error) {
				p, err := s.ListCookLogsByDay(ctx, u, in.Date, one)
				return find(p, err, func(x kondate.CookLog) bool { return x.ID == v.ID })
			}, func() any {
				w := v
				w.Date, w.RecipeID, w.Title, w.Note = in.Date, in.RecipeID, in.Title, in.Note
				return w
			}, "", err
	case 12:
		in := kondate.NewPaymentMethod{Provider: r.s(), ProviderRef: r.s(), Brand: r.s(), Last4: r.s()}
		v, err := s.AddPaymentMethod(ctx, u, in)
		return v, func() (any, error) {
				p, err := s.ListPaymentMethods(ctx, u, one)
				return find(p, err, func(x kondate.PaymentMethod) bool { return x.ID == v.ID })
			}, func() any {
				w := v
				w.Provider, w.ProviderRef, w.Brand, w.Last4 = in.Provider, in.ProviderRef, in.Brand, in.Last4
				return w
			}, in.ProviderRef, err
	case 13:
		ms := int64(binary.LittleEndian.Uint64(append(r.bytes(), make([]byte, 8)...)))
		in := kondate.NewPurchase{TransactionID: r.s(), PurchasedAt: time.UnixMilli(ms % (400000 * 365 * 24 * 3600 * 1000)), ProductID: r.s(),
			Amount: int64(r.n(1 << 30)), Currency: r.s(), PaymentMethodID: r.s()}
		v, err := s.RecordPurchase(ctx, u, in)
		return v, func() (any, error) {
				p, err := s.ListPurchases(ctx, u, one)
				return find(p, err, func(x kondate.Purchase) bool { return x.ID == v.ID })
			}, func() any {
				return kondate.Purchase{ID: in.TransactionID, UserID: u, PurchasedAt: in.PurchasedAt, ProductID: in.ProductID,
					Amount: in.Amount, Currency: in.Currency, PaymentMethodID: in.PaymentMethodID}
			}, "", err
	case 14:
		in := kondate.NewNotification{Kind: r.s(), Title: r.s(), Body: r.s()}
		v, err := s.AddNotification(ctx, u, in)
		return v, func() (any, error) {
				p, err := s.ListNotifications(ctx, u, one)
				return find(p, err, func(x kondate.Notification) bool { return x.Ref == v.Ref })
			}, func() any {
				w := v
				w.Kind, w.Title, w.Body = in.Kind, in.Title, in.Body
				return w
			}, "", err
	case 15:
		in := kondate.Subscription{Plan: r.s(), Status: r.s(), CurrentPeriodEnd: time.UnixMilli(int64(r.n(1<<50)) * 1000)}
		v, err := s.SetSubscription(ctx, u, in)
		return v, func() (any, error) { return s.GetSubscription(ctx, u) }, func() any {
			w := v
			w.Plan, w.Status, w.CurrentPeriodEnd = in.Plan, in.Status, in.CurrentPeriodEnd
			return w
		}, "", err
	case 16:
		in := kondate.NotificationSettings{PushEnabled: r.n(1) == 1, EmailEnabled: r.n(1) == 1}
		v, err := s.SetNotificationSettings(ctx, u, in)
		return v, func() (any, error) { return s.GetNotificationSettings(ctx, u) }, func() any {
			w := v
			w.PushEnabled, w.EmailEnabled = in.PushEnabled, in.EmailEnabled
			return w
		}, "", err
	case 17:
		platform, token := pick(r, kondate.PlatformIOS, kondate.PlatformAndroid, kondate.PlatformWeb), r.s()
		v, err := s.RegisterPushToken(ctx, u, platform, token)
		return v, func() (any, error) {
				p, err := s.ListPushTokens(ctx, u, one)
				return find(p, err, func(x kondate.PushToken) bool { return x.Platform == platform && x.Token == token })
			}, func() any {
				w := v
				w.Platform, w.Token = platform, token
				return w
			}, token, err
	case 18:
		p := kondate.ProfilePatch{DisplayName: r.opt(), AvatarURL: r.opt()}
		v, err := s.UpdateProfile(ctx, u, p)
		return v, func() (any, error) { return s.GetProfile(ctx, u) }, func() any {
			w := v
			set(&w.DisplayName, p.DisplayName)
			set(&w.AvatarURL, p.AvatarURL)
			return w
		}, "", err
	default:
		in := kondate.NewShareLink{TargetType: pick(r, kondate.KindRecipe, kondate.KindSet), TargetID: r.s(), AuthorName: r.s(), SourceURL: r.s()}
		v, err := s.CreateShareLink(ctx, u, in)
		return v, func() (any, error) { return s.GetShareLink(ctx, v.ID) }, func() any {
			w := v
			w.TargetType, w.TargetID, w.AuthorName, w.SourceURL = in.TargetType, in.TargetID, in.AuthorName, in.SourceURL
			return w
		}, "", err
	}
}

// set sets *dst to *p when p is not nil: a patch's field.
func set(dst *string, p *string) {
	if p != nil {
		*dst = *p
	}
}

// orNil is nil for an empty list: the domain types hold nil for an empty
// or missing one.
func orNil[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// inputSeed writes op's input in inputReader's format, for the own user:
// an int is a count, flag or choice (a uvarint), a string a string, a
// []byte a string of those bytes.
func inputSeed(op int, parts ...any) []byte {
	b := []byte{byte(op), 0}
	for _, p := range parts {
		switch p := p.(type) {
		case int:
			b = binary.AppendUvarint(b, uint64(p))
		case string:
			b = wireBytes(b, []byte(p))
		case []byte:
			b = wireBytes(b, p)
		}
	}
	// Padding: a count is cut to the bytes that follow it.
	return append(b, bytesOf(0, 8)...)
}

// validInputs are one valid input of each of fuzzOp's methods.
func validInputs() [][]byte {
	ms := binary.LittleEndian.AppendUint64(nil, uint64(time.Date(2026, 2, 9, 10, 0, 0, 0, time.UTC).UnixMilli()))
	return [][]byte{
		inputSeed(0, "麻婆豆腐", 1, "豆腐", "1丁", 1, "切る", 1, "中華", "manual"),
		inputSeed(1, 1, "新しい名前", 0, 1, 0, 0, 1, 1, "和食"),
		inputSeed(2, "中華セット", 1, "", "ご飯", 0),
		inputSeed(3, 1, "t", 1, 1, "r_01", "x", 0),
		inputSeed(4, 0, 1, "", "カレー"),
		inputSeed(5, "牛乳", "1本"),
		inputSeed(6, 1, "牛乳2", 0),
		inputSeed(7, "にんじん", "2本", "2026-03-01"),
		inputSeed(8, 1, "大根", 1, "", 1, "2026-03-02"),
		inputSeed(9, 1, "中華"),
		inputSeed(10, 1, "洋食"),
		inputSeed(11, "2026-02-10", "", "カレー", "甘口"),
		inputSeed(12, "stripe", "pm_123", "visa", "4242"),
		inputSeed(13, ms, "pi_2", "premium", 4, "JPY", ""),
		inputSeed(14, "info", "ようこそ", "本文"),
		inputSeed(15, "premium", "active", 5),
		inputSeed(16, 1, 1),
		inputSeed(17, 0, "apns-0123456789abcdef"),
		inputSeed(18, 1, "山田", 1, "https://example.com/a.png"),
		inputSeed(19, 0, "r_01", "山田", "https://example.com/r"),
	}
}

// TestFuzzInputValid holds validInputs to what they are: every method
// takes its seed, so that FuzzInput's seeds check the accepted path too.
func TestFuzzInputValid(t *testing.T) {
	ctx := context.Background()
	base := ownItems(t)
	for op, data := range validInputs() {
		s := kondate.NewMemoryStore(fuzzOptions, otherIDs)
		if err := s.Import(ddbkit.TableItems{kondate.DefaultTableName: base}); err != nil {
			t.Fatal(err)
		}
		rid, sid, shid, fid, cid := inputIDs(t, s)
		r := &inputReader{itemReader: itemReader{b: data[2:]}}
		if _, _, _, _, err := fuzzOp(ctx, s, op, "u_01", r, rid, sid, shid, fid, cid); err != nil {
			t.Errorf("op %d refuses its valid input: %v", op, err)
		}
	}
}
