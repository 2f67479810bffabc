package backend_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/backend/backendtest"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// decodedValue is a value with a slice, which a caller may change.
type decodedValue struct {
	SK   string
	Tags []string
}

// counted returns a Decoder that counts its decodes; an item whose "v" is
// "bad" is corrupt.
func counted(n *atomic.Int64) *backend.Decoder[decodedValue] {
	return backend.NewDecoder(func(t ddb.Table, item ddb.Item) (decodedValue, error) {
		n.Add(1)
		if s, _ := backend.Str(item, "v"); s == "bad" {
			return decodedValue{SK: "partial"}, ddb.Corrupt(t, item, "v", "bad")
		}
		sk, _ := backend.Str(item, "sk")
		return decodedValue{SK: sk, Tags: []string{sk}}, nil
	}, func(v decodedValue) decodedValue { v.Tags = append([]string(nil), v.Tags...); return v })
}

func TestDecodeOncePerStoredItem(t *testing.T) {
	ctx := t.Context()
	main, _, _ := backendtest.Schema()
	m := backend.NewMemory(nil, main)
	put := func(sk, v string) {
		t.Helper()
		if err := m.Put(ctx, main.Table, ddb.Item{"pk": ddb.S("P"), "sk": ddb.S(sk), "v": ddb.S(v)}, backend.Cond{}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 5 {
		put(fmt.Sprint("s", i), "ok")
	}
	var n atomic.Int64
	d := counted(&n)
	read := func() []decodedValue {
		t.Helper()
		items, _, err := m.Query(ctx, ddb.KeyQuery{Table: main.Table, PartitionValue: "P"}, 10, "", backend.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		var out []decodedValue
		for _, item := range items {
			v, err := backend.Decode(m, main.Table, item, d)
			if err != nil {
				if !errors.Is(err, ddbkit.ErrCorruptItem) || v.SK != "" {
					t.Fatalf("Decode = %+v, %v; want the zero value and ErrCorruptItem", v, err)
				}
				continue
			}
			out = append(out, v)
		}
		return out
	}
	first := read()
	first[0].Tags[0] = "changed by a caller"
	second := read()
	if got := n.Load(); got != 5 {
		t.Errorf("two reads of 5 stored items decoded %d times, want 5", got)
	}
	if second[0].Tags[0] != "s0" {
		t.Errorf("a caller's change reached the kept value: %q", second[0].Tags[0])
	}

	// A replaced item is decoded anew; a corrupt one's error is kept too.
	put("s1", "bad")
	read()
	read()
	if got := n.Load(); got != 6 {
		t.Errorf("after replacing one item, %d decodes, want 6", got)
	}

	// A projection BatchGetWith returned is kept with its item, as made
	// and as decoded: a second read returns the same map, decoded once.
	proj := backend.ReadOptions{Attrs: []string{"pk", "sk"}}
	for range 2 {
		items, err := m.BatchGetWith(ctx, main.Table, []backend.Key{{PK: "P", SK: "s2"}}, proj)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := items[0]["v"]; ok || len(items[0]) != 2 {
			t.Fatalf("projection on pk, sk = %v", items[0])
		}
		if _, err := backend.Decode(m, main.Table, items[0], d); err != nil {
			t.Fatal(err)
		}
	}
	if got := n.Load(); got != 7 {
		t.Errorf("two reads of a projection: %d decodes in all, want 7", got)
	}

	// An item that is not what the table holds (a copy) is decoded every
	// time, and leaves nothing behind.
	stored, err := m.Get(ctx, main.Table, backend.Key{PK: "P", SK: "s2"})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := backend.Decode(m, main.Table, ddb.CloneItem(stored), d); err != nil {
			t.Fatal(err)
		}
	}
	if got := n.Load(); got != 9 {
		t.Errorf("two decodes of a copy: %d decodes in all, want 9", got)
	}

	// QueryPage decodes what the table holds once too: s1 is corrupt and
	// skipped, the rest were decoded by the reads above.
	p, err := backend.QueryPage(ctx, m, ddb.KeyQuery{Table: main.Table, PartitionValue: "P"}, 10, "", backend.Filter{}, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 4 || len(p.Skipped) != 1 || !errors.Is(p.Skipped[0], ddbkit.ErrCorruptItem) {
		t.Errorf("QueryPage = %d items, Skipped %v; want 4 items and s1 skipped as corrupt", len(p.Items), p.Skipped)
	}
	if got := n.Load(); got != 9 {
		t.Errorf("QueryPage after the reads: %d decodes in all, want 9", got)
	}

	// A version decoded before it was replaced still decodes, from what was
	// kept, to what it holds; the new version is decoded once.
	put("s2", "ok")
	for range 2 {
		v, err := backend.Decode(m, main.Table, stored, d)
		if err != nil || v.SK != "s2" {
			t.Fatalf("Decode of the replaced version = %+v, %v", v, err)
		}
	}
	read()
	read()
	if got := n.Load(); got != 10 {
		t.Errorf("after replacing s2 and decoding both versions twice: %d decodes in all, want 10", got)
	}

	// Another backend decodes every time.
	var other backend.Backend = struct{ backend.Backend }{m}
	item := ddb.Item{"pk": ddb.S("P"), "sk": ddb.S("s3"), "v": ddb.S("ok")}
	for range 2 {
		if _, err := backend.Decode(other, main.Table, item, d); err != nil {
			t.Fatal(err)
		}
	}
	if got := n.Load(); got != 12 {
		t.Errorf("two decodes through another backend: %d decodes in all, want 12", got)
	}
}

// TestDecodeRace reads and rewrites the same items from many goroutines:
// under -race, and every value read must be one that was stored.
func TestDecodeRace(t *testing.T) {
	ctx := t.Context()
	main, _, _ := backendtest.Schema()
	m := backend.NewMemory(nil, main)
	var n atomic.Int64
	d := counted(&n)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				sk := fmt.Sprint("s", i%4)
				if g%2 == 0 {
					if err := m.Put(ctx, main.Table, ddb.Item{"pk": ddb.S("P"), "sk": ddb.S(sk), "n": &types.AttributeValueMemberN{Value: fmt.Sprint(i)}}, backend.Cond{}); err != nil {
						t.Error(err)
						return
					}
					continue
				}
				// Each reader reads a way of its own: a get, a projection
				// (kept with its item, and made by whichever reader comes
				// first), a page.
				var vs []decodedValue
				switch g % 6 {
				case 1, 3:
					opts := backend.ReadOptions{}
					if g == 3 {
						opts.Attrs = []string{"pk", "sk"}
					}
					items, err := m.BatchGetWith(ctx, main.Table, []backend.Key{{PK: "P", SK: sk}}, opts)
					if err != nil || items[0] == nil {
						continue
					}
					v, err := backend.Decode(m, main.Table, items[0], d)
					if err != nil || v.SK != sk {
						t.Errorf("Decode = %+v, %v; want %s", v, err, sk)
						return
					}
					vs = append(vs, v)
				default:
					p, err := backend.QueryPage(ctx, m, ddb.KeyQuery{Table: main.Table, PartitionValue: "P"}, 10, "", backend.Filter{}, d, nil)
					if err != nil {
						t.Error(err)
						return
					}
					vs = p.Items
				}
				for _, v := range vs {
					if len(v.Tags) != 1 || v.Tags[0] != v.SK {
						t.Errorf("decoded %+v: a caller's change reached the kept value", v)
						return
					}
					v.Tags[0] = "mine"
				}
			}
		}()
	}
	wg.Wait()
}

func TestNewDecoderNeedsClone(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewDecoder of a type with a slice and no clone did not panic")
		}
	}()
	backend.NewDecoder(func(ddb.Table, ddb.Item) (decodedValue, error) { return decodedValue{}, nil }, nil)
}

// pageDecoder decodes an item's "v": "skip" is ErrSkip, "corrupt" a
// corrupt item, "fail" fails with other.
func pageDecoder(other error) *backend.Decoder[string] {
	return backend.NewDecoder(func(t ddb.Table, item ddb.Item) (string, error) {
		switch v, _ := backend.Str(item, "v"); v {
		case "skip":
			return "", backend.ErrSkip
		case "corrupt":
			return "", ddb.Corrupt(t, item, "v", "corrupt")
		case "fail":
			return "", other
		default:
			return v, nil
		}
	}, nil)
}

func TestDecodePage(t *testing.T) {
	main, _, _ := backendtest.Schema()
	m := backend.NewMemory(nil, main)
	other := errors.New("a decoder's own failure")
	d := pageDecoder(other)
	items := func(vs ...string) []ddb.Item {
		var out []ddb.Item
		for i, v := range vs {
			out = append(out, ddb.Item{"pk": ddb.S("P"), "sk": ddb.S(fmt.Sprint(i)), "v": ddb.S(v)})
		}
		return out
	}
	p, err := backend.DecodePage(m, main.Table, items("a", "skip", "corrupt", "b"), "next", d, nil)
	if err != nil || fmt.Sprint(p.Items) != "[a b]" || p.Next != "next" || len(p.Skipped) != 1 || !errors.Is(p.Skipped[0], ddbkit.ErrCorruptItem) {
		t.Errorf("DecodePage = %+v, %v; want items [a b], the cursor, and one corrupt item skipped", p, err)
	}
	if p, err := backend.DecodePage(m, main.Table, items("a", "fail", "b"), "next", d, nil); !errors.Is(err, other) || len(p.Items) != 0 {
		t.Errorf("DecodePage = %+v, %v; want no page and the decoder's error", p, err)
	}
	// wrap wraps every error reported, skipped ones included.
	wrap := func(err error) error { return fmt.Errorf("list things: %w", err) }
	p, err = backend.DecodePage(m, main.Table, items("corrupt"), "", d, wrap)
	if err != nil || len(p.Skipped) != 1 || !errors.Is(p.Skipped[0], ddbkit.ErrCorruptItem) || !strings.HasPrefix(p.Skipped[0].Error(), "list things: ") {
		t.Errorf("DecodePage with wrap = %+v, %v; want the corrupt item's error, wrapped", p, err)
	}
	if _, err := backend.DecodePage(m, main.Table, items("fail"), "", d, wrap); !errors.Is(err, other) || !strings.HasPrefix(err.Error(), "list things: ") {
		t.Errorf("DecodePage with wrap: error %v, want the decoder's error, wrapped", err)
	}
}

// TestQueryPageFunc runs a page through a conv on the memory backend (whose
// values are the kept ones) and on another backend (which decodes anew):
// the same page, conv called once per item kept, none for one left out.
func TestQueryPageFunc(t *testing.T) {
	ctx := t.Context()
	main, _, _ := backendtest.Schema()
	m := backend.NewMemory(nil, main)
	for i, v := range []string{"a", "skip", "corrupt", "b"} {
		if err := m.Put(ctx, main.Table, ddb.Item{"pk": ddb.S("P"), "sk": ddb.S(fmt.Sprint(i)), "v": ddb.S(v)}, backend.Cond{}); err != nil {
			t.Fatal(err)
		}
	}
	d := pageDecoder(nil)
	for name, b := range map[string]backend.Backend{"memory": m, "another backend": struct{ backend.Backend }{m}} {
		t.Run(name, func(t *testing.T) {
			convs := 0
			upper := func(v string) string { convs++; return strings.ToUpper(v) }
			for range 2 {
				p, err := backend.QueryPageFunc(ctx, b, ddb.KeyQuery{Table: main.Table, PartitionValue: "P"}, 10, "", backend.Filter{}, d, upper, nil)
				if err != nil || fmt.Sprint(p.Items) != "[A B]" || len(p.Skipped) != 1 || !errors.Is(p.Skipped[0], ddbkit.ErrCorruptItem) {
					t.Fatalf("QueryPageFunc = %+v, %v; want [A B] and one corrupt item skipped", p, err)
				}
			}
			if convs != 4 {
				t.Errorf("two pages of two items kept: conv called %d times, want 4", convs)
			}
		})
	}
}

// TestDecodePerTable stores one map in two tables of the same key schema:
// each table decodes it once, with itself as the table, however the reads
// interleave.
func TestDecodePerTable(t *testing.T) {
	ctx := t.Context()
	main, _, ttl := backendtest.Schema()
	m := backend.NewMemory(nil, main, ttl)
	item := ddb.Item{"pk": ddb.S("P"), "sk": ddb.S("s"), "v": ddb.S("ok")}
	for _, tb := range []backend.Table{main, ttl} {
		if err := m.Put(ctx, tb.Table, item, backend.Cond{}); err != nil {
			t.Fatal(err)
		}
	}
	var n atomic.Int64
	d := backend.NewDecoder(func(t ddb.Table, item ddb.Item) (string, error) { n.Add(1); return t.Name, nil }, nil)
	for range 2 {
		for _, tb := range []backend.Table{main, ttl} {
			got, err := m.Get(ctx, tb.Table, backend.Key{PK: "P", SK: "s"})
			if err != nil {
				t.Fatal(err)
			}
			if v, err := backend.Decode(m, tb.Table, got, d); err != nil || v != tb.Name {
				t.Errorf("Decode in %s = %q, %v; want %q", tb.Name, v, err, tb.Name)
			}
		}
	}
	if got := n.Load(); got != 2 {
		t.Errorf("two reads in each of two tables: %d decodes, want 2", got)
	}
}
