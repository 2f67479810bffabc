package backend

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/fuzzcheck"
)

// mergedFixture is a memory table whose GSI partitions p0 to p3 a merged
// listing reads, and a partition "other" (another tenant's) it must never
// reach.
func mergedFixture(t testing.TB) (*Memory, Merged) {
	ix := ddb.Index{Name: "G", PartitionKey: "GK", SortKey: "GS"}
	tb := ddb.Table{Name: "t", PartitionKey: "PK", SortKey: "SK"}
	m := NewMemory(func() time.Time { return time.Unix(0, 0) }, Table{Table: tb, Indexes: []ddb.Index{ix}})
	var items []ddb.Item
	for i := range 24 {
		gk := fmt.Sprint("p", i%4)
		if i%5 == 0 {
			gk = "other"
		}
		items = append(items, ddb.Item{"PK": ddb.S(fmt.Sprint("item-", i)), "SK": ddb.S("x"), "GK": ddb.S(gk), "GS": ddb.S(fmt.Sprintf("s%02d", i%7))})
	}
	if err := m.Import("t", items); err != nil {
		t.Fatal(err)
	}
	mg := Merged{Listing: "fuzz"}
	for p := range 4 {
		mg.Queries = append(mg.Queries, ddb.KeyQuery{Table: tb, Index: ix, PartitionValue: fmt.Sprint("p", p), Sort: ddb.SortBeginsWith("s")})
	}
	return m, mg
}

// FuzzMergedCursor decodes any merged cursor, of the listing merged over
// shards: a cursor string as a caller hands it back (mode 0), or one
// forged with the public key (no CursorSecret) around any positions, as
// their JSON (mode 1) or as the deflated bytes (mode 2). MergePage then
// gives ErrInvalidCursor, with a bounded message, or a page whose every
// item lies in the listing's partitions and sort range: a forged cursor
// never reaches another partition.
func FuzzMergedCursor(f *testing.F) {
	m, mg := mergedFixture(f)
	_, next, err := MergePage(f.Context(), m, mg, 3, "", Filter{})
	if err != nil || next == "" {
		f.Fatalf("first page: %q, %v", next, err)
	}
	f.Add(uint8(0), []byte(next))
	f.Add(uint8(0), []byte(next[:len(next)-1]))
	f.Add(uint8(0), []byte(""))
	for _, js := range []string{
		`[["SS03","Sitem-3","Sx"],[],[],[]]`, `[["Ss03","Sitem-3","Sx"],[],[],[]]`, `[[],[],[],[]]`, `[]`, `null`,
		`[["N1","Sitem-3","Sx"],[],[],[]]`, `[["BAAE=","Sitem-3","Sx"],[],[],[]]`, `[["Bnot base64","S","S"],[],[],[]]`,
		`[["Ss03","Sitem-0","Sx"],["Ss99"],[""],["X"]]`, `[["Ss03","Sitem-3","Sx","Sextra"],[],[],[]]`, `{"a":1}`,
	} {
		f.Add(uint8(1), []byte(js))
	}
	f.Add(uint8(2), bytes.Repeat([]byte{0}, 64))
	f.Fuzz(func(t *testing.T, mode uint8, data []byte) {
		if len(data) > fuzzcheck.MaxInput {
			return
		}
		m, mg := mergedFixture(t)
		cursor := string(data)
		if mode%3 != 0 {
			cursor = forgeMerged(t, m, mg, data, mode%3 == 1)
		}
		items, _, err := MergePage(t.Context(), m, mg, 5, cursor, Filter{})
		if err != nil {
			fuzzcheck.Error(t, err, ddbkit.ErrInvalidCursor, cursor, string(data))
			return
		}
		for _, it := range items {
			gk, _ := Str(it, "GK")
			gs, _ := Str(it, "GS")
			inside := false
			for _, q := range mg.Queries {
				inside = inside || (gk == q.PartitionValue && q.Sort.Match(gs))
			}
			if !inside {
				t.Fatalf("cursor %q listed %v, outside the listing's partitions", cursor, it)
			}
		}
	})
}

// forgeMerged makes the cursor MergePage would issue for positions data,
// as JSON (deflated here) or as deflated bytes: what someone who reads
// this code can forge when no CursorSecret is set.
func forgeMerged(t *testing.T, b Backend, mg Merged, data []byte, asJSON bool) string {
	t.Helper()
	bound := make([]ddb.KeyQuery, len(mg.Queries))
	for i, q := range mg.Queries {
		q.Budget = max((ddb.DefaultBudget+len(mg.Queries)-1)/len(mg.Queries), 6)
		q.Filter = bindingOf(b, q.Table, Filter{})
		bound[i] = q
	}
	mq := mg.cursorQuery(bound)
	z := data
	if asJSON {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.BestCompression)
		w.Write(data)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		z = buf.Bytes()
	}
	c, err := ddb.EncodeCursor(mq, ddb.Item{attrMergedListing: ddb.S(mq.PartitionValue), attrMergedPositions: ddb.S(base64.RawStdEncoding.EncodeToString(z))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mg.decode(mq, bound, c); err != nil && !errors.Is(err, ddbkit.ErrInvalidCursor) {
		t.Fatalf("decode of a forged cursor: %v, want ErrInvalidCursor", err)
	}
	return c
}
