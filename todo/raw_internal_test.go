package todo

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestCodecsPlanned keeps every layout off attributevalue's reflection for
// the items the stores write, which the benchmarks in bench/todo measure.
func TestCodecsPlanned(t *testing.T) {
	for name, planned := range map[string]bool{
		"user": userCodec.Planned(), "todo": todoCodec.Planned(), "category": categoryCodec.Planned(),
	} {
		if !planned {
			t.Errorf("the %s codec is not planned", name)
		}
	}
}

// TestDecodeLenient holds the layouts' codecs to ddb.Unmarshal, which read
// every item the seed's other writers may leave before the codecs did: the
// same values from attributes of other types, and the same attribute named
// when an item has several that cannot be read.
func TestDecodeLenient(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	null := &types.AttributeValueMemberNULL{Value: true}
	n := &types.AttributeValueMemberN{Value: "1"}
	m := &types.AttributeValueMemberM{Value: ddb.Item{"x": s("y")}}
	key := ddb.Item{"pk": s("user#alice"), "sk": s("todo#x")}
	items := []ddb.Item{
		{"title": null, "completed": null, "name": null, "email": null},
		{"title": n, "description": n, "name": n, "username": n, "id": s("x"), "other": m},
		{"completed": s("true")},
		{"completed": n},
		{"title": m, "completed": s("true"), "name": m, "color": m, "email": m, "username": m},
		{"updated_at": m, "pk": m, "sk": m},
		{"description": &types.AttributeValueMemberSS{Value: []string{"a"}}},
	}
	for _, it := range items {
		item := ddb.Item{}
		for k, v := range key {
			item[k] = v
		}
		for k, v := range it {
			item[k] = v
		}
		sameDecode(t, "user", userCodec, item)
		sameDecode(t, "todo", todoCodec, item)
		sameDecode(t, "category", categoryCodec, item)
	}
}

func sameDecode[T comparable](t *testing.T, name string, c ddb.Codec[T], item ddb.Item) {
	t.Helper()
	tbl := table("t")
	var got, want T
	gotErr, wantErr := c.Decode(tbl, item, &got), ddb.Unmarshal(tbl, item, &want)
	var gotCE, wantCE *ddbkit.CorruptItemError
	switch {
	case wantErr == nil && (gotErr != nil || got != want):
		t.Errorf("%s of %v = %+v, %v; want %+v", name, item, got, gotErr, want)
	case wantErr != nil && !errors.As(wantErr, &wantCE):
		t.Fatalf("ddb.Unmarshal: %v", wantErr)
	case wantErr != nil && (!errors.As(gotErr, &gotCE) || gotCE.Attr != wantCE.Attr):
		t.Errorf("%s of %v: %v; want a *ddbkit.CorruptItemError naming %s", name, item, gotErr, wantCE.Attr)
	}
}
