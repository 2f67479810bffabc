package backend_test

import (
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestStream checks the emulated stream of new images: one record per
// change of its own table, in commit order, stamped with the last
// reading of the clock (which it never reads itself once it has one),
// and each handed out once.
func TestStream(t *testing.T) {
	streamed := backend.Table{Table: ddb.Table{Name: "streamed", PartitionKey: "pk", SortKey: "sk"}}
	other := backend.Table{Table: ddb.Table{Name: "other", PartitionKey: "pk", SortKey: "sk"}}
	start := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	reads := 0
	st := backend.NewStream(streamed.Table, func() time.Time {
		reads++
		return start.Add(time.Duration(reads) * time.Minute)
	})
	m := backend.NewMemory(backend.Clock(st.Now), streamed, other)
	m.OnWrite(st.Wrote)
	ctx := t.Context()
	if err := m.Import("streamed", []ddb.Item{streamed.Key("P", "imported")}); err != nil {
		t.Fatal(err)
	}
	item := streamed.Key("P", "a")
	item["v"] = &types.AttributeValueMemberS{Value: "x"}
	if err := m.Put(ctx, streamed.Table, item, backend.Cond{}); err != nil { // no clock read yet: the record reads it
		t.Fatal(err)
	}
	if err := m.Put(ctx, other.Table, other.Key("P", "a"), backend.Cond{}); err != nil {
		t.Fatal(err)
	}
	st.Now() // an operation's reading, which stamps what follows
	var u backend.Change
	u.Set("v", &types.AttributeValueMemberN{Value: "7"})
	if _, err := m.Update(ctx, streamed.Table, backend.Key{PK: "P", SK: "a"}, u, backend.Exists(nil)); err != nil {
		t.Fatal(err)
	}
	if err := m.Delete(ctx, streamed.Table, backend.Key{PK: "P", SK: "a"}); err != nil {
		t.Fatal(err)
	}

	ev := st.Take()
	type record struct {
		name, seq string
		at        time.Time
		keys, v   string
	}
	want := []record{
		{"INSERT", "000000000000000000001", start.Add(time.Minute), "P/a", "x"},
		{"MODIFY", "000000000000000000002", start.Add(2 * time.Minute), "P/a", "7"},
		{"REMOVE", "000000000000000000003", start.Add(2 * time.Minute), "P/a", ""},
	}
	if len(ev.Records) != len(want) {
		t.Fatalf("got %d records, want %d: %+v", len(ev.Records), len(want), ev.Records)
	}
	for i, r := range ev.Records {
		c := r.Change
		got := record{r.EventName, c.SequenceNumber, c.ApproximateCreationDateTime.UTC(),
			c.Keys["pk"].String() + "/" + c.Keys["sk"].String(), ""}
		if v, ok := c.NewImage["v"]; ok {
			if v.DataType() == events.DataTypeNumber {
				got.v = v.Number()
			} else {
				got.v = v.String()
			}
		}
		if got != want[i] {
			t.Errorf("record %d = %+v, want %+v", i, got, want[i])
		}
		if r.EventSource != "aws:dynamodb" || c.StreamViewType != "NEW_IMAGE" {
			t.Errorf("record %d: source %q, view %q, want aws:dynamodb, NEW_IMAGE", i, r.EventSource, c.StreamViewType)
		}
		if (r.EventName == "REMOVE") != (c.NewImage == nil) {
			t.Errorf("record %d: %s with new image %v", i, r.EventName, c.NewImage)
		}
	}
	if reads != 2 {
		t.Errorf("the clock was read %d times, want 2 (the first record's, and the operation's)", reads)
	}
	if n := len(st.Take().Records); n != 0 {
		t.Errorf("a second Take returned %d records, want none", n)
	}
}
