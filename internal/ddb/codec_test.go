package ddb_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The layouts below hold every kind of field the domains' layouts have, and
// some they do not, so that the codec is held to attributevalue on each.

type codecKeys struct {
	PK string `dynamodbav:"pk"`
	SK string `dynamodbav:"sk"`
}

type codecPriority string

type codecElem struct {
	Name   string `dynamodbav:"name"`
	Amount string `dynamodbav:"amount,omitempty"`
	N      int    `dynamodbav:"n"`
}

// codecMs decodes itself, leniently, as wardrobe's attribute types do.
type codecMs struct {
	ms  int64
	set bool
}

func (m *codecMs) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	*m = codecMs{}
	switch v := av.(type) {
	case *types.AttributeValueMemberNULL:
		return nil
	case *types.AttributeValueMemberN:
		n, err := strconv.ParseInt(v.Value, 10, 64)
		*m = codecMs{ms: n, set: err == nil}
		return err
	}
	return fmt.Errorf("want a Number, got %T", av)
}

func (m codecMs) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	if !m.set {
		return &types.AttributeValueMemberNULL{Value: true}, nil
	}
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(m.ms, 10)}, nil
}

// codecCount and codecIDs are custom types of kinds that attributevalue
// tests for zero and nil before it calls their Marshaler.
type codecCount int64

func (c *codecCount) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	*c = 0
	if n, ok := av.(*types.AttributeValueMemberN); ok {
		v, err := strconv.ParseInt(n.Value, 10, 64)
		*c = codecCount(v)
		return err
	}
	return nil
}

func (c codecCount) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberS{Value: strconv.Itoa(int(c))}, nil
}

type codecIDs []string

func (l *codecIDs) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	*l = nil
	if v, ok := av.(*types.AttributeValueMemberSS); ok {
		*l = append(codecIDs{}, v.Value...)
	}
	return nil
}

func (l codecIDs) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberSS{Value: append([]string{}, l...)}, nil
}

// codecHalf only decodes itself, so attributevalue encodes it.
type codecHalf struct{ v string }

func (h *codecHalf) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	h.v = fmt.Sprint(av)
	return nil
}

// codecLayout is planned field by field.
type codecLayout struct {
	codecKeys
	Title    string        `dynamodbav:"title"`
	Note     string        `dynamodbav:"note,omitempty"`
	Priority codecPriority `dynamodbav:"priority"`
	Done     bool          `dynamodbav:"done"`
	Public   bool          `dynamodbav:"public,omitempty"`
	Count    int64         `dynamodbav:"count"`
	Small    int8          `dynamodbav:"small,omitempty"`
	Tags     []string      `dynamodbav:"tags"`
	Photos   []string      `dynamodbav:"photos,omitempty"`
	Elems    []codecElem   `dynamodbav:"elems"`
	More     []codecElem   `dynamodbav:"more,omitempty"`
	Untagged string
	Skipped  string `dynamodbav:"-"`
	hidden   string //nolint:unused // unexported: neither codec sees it
}

// codecLenient has fields that encode and decode themselves.
type codecLenient struct {
	PK    string     `dynamodbav:"pk"`
	At    codecMs    `dynamodbav:"at"`
	Tags  []string   `dynamodbav:"tags"`
	Count codecCount `dynamodbav:"count,omitempty"`
	Small codecCount `dynamodbav:"small"`
	IDs   codecIDs   `dynamodbav:"set"`
	More  codecIDs   `dynamodbav:"more,omitempty"`
}

// codecWhole has what the plan leaves to attributevalue both ways.
type codecWhole struct {
	PK   string            `dynamodbav:"pk"`
	Set  []string          `dynamodbav:"set,stringset"`
	When time.Time         `dynamodbav:"when,unixtime"`
	Map  map[string]string `dynamodbav:"map"`
	Ptr  *string           `dynamodbav:"ptr"`
	Half codecHalf         `dynamodbav:"half"`
}

func TestCodecEncodeMatchesAttributevalue(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		l := randomLayout(r)
		checkEncode(t, i, ddb.NewCodec[codecLayout](), &l)
		w := codecWhole{PK: l.PK, When: time.Unix(int64(i), 0).UTC()}
		if r.IntN(2) == 0 {
			w.Set, w.Map, w.Ptr = []string{"a", "b"}, map[string]string{"k": l.Title}, &l.Title
		}
		checkEncode(t, i, ddb.NewCodec[codecWhole](), &w)
		c := codecLenient{PK: l.PK, At: codecMs{ms: l.Count, set: l.Done}, Tags: l.Tags, Count: codecCount(l.Count),
			Small: codecCount(l.Small), IDs: codecIDs(l.Photos), More: codecIDs(l.Tags)}
		checkEncode(t, i, ddb.NewCodec[codecLenient](), &c)
	}
}

func checkEncode[T any](t *testing.T, i int, c ddb.Codec[T], v *T) {
	t.Helper()
	got, err := c.Encode(v)
	if err != nil {
		t.Fatalf("value %d: Encode: %v", i, err)
	}
	want, err := attributevalue.MarshalMap(v)
	if err != nil {
		t.Fatalf("value %d: MarshalMap: %v", i, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("value %d %+v:\nEncode     %s\nMarshalMap %s", i, *v, ddb.AttrString(&types.AttributeValueMemberM{Value: got}),
			ddb.AttrString(&types.AttributeValueMemberM{Value: want}))
	}
}

func TestCodecDecodeMatchesAttributevalue(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	names := []string{"pk", "sk", "title", "note", "priority", "done", "public", "count", "small", "tags", "photos",
		"elems", "more", "Untagged", "Skipped", "hidden", "at", "set", "when", "map", "ptr", "half", "other"}
	tbl := ddb.Table{Name: "t", PartitionKey: "pk", SortKey: "sk"}
	for i := range 5000 {
		item := ddb.Item{}
		for _, n := range names {
			if av := randomAttr(r, 2); av != nil {
				item[n] = av
			}
		}
		// Mostly well-typed items, which take the planned path.
		if i%2 == 0 {
			l := randomLayout(r)
			good, _ := attributevalue.MarshalMap(l)
			for n, av := range good {
				if r.IntN(4) != 0 {
					item[n] = av
				}
			}
		}
		// Sparse items, with fewer attributes than the layouts have
		// fields, which Decode reads the other way round.
		if i%3 == 0 {
			for n := range item {
				if r.IntN(4) != 0 {
					delete(item, n)
				}
			}
		}
		checkDecode(t, i, tbl, item, ddb.NewCodec[codecLayout]())
		checkDecode(t, i, tbl, item, ddb.NewCodec[codecLenient]())
		checkDecode(t, i, tbl, item, ddb.NewCodec[codecWhole]())
	}
}

func checkDecode[T any](t *testing.T, i int, tbl ddb.Table, item ddb.Item, c ddb.Codec[T]) {
	t.Helper()
	var got, want T
	err := c.Decode(tbl, item, &got)
	wantErr := attributevalue.UnmarshalMap(item, &want)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("item %d %s: Decode error %v, UnmarshalMap error %v", i, ddb.AttrString(&types.AttributeValueMemberM{Value: item}), err, wantErr)
	}
	if err != nil {
		// The attribute blamed is the one ddb.Unmarshal blames: the first,
		// by name, that cannot be decoded.
		var ce, want *ddbkit.CorruptItemError
		if !errors.As(err, &ce) || !errors.Is(err, ddbkit.ErrCorruptItem) || item[ce.Attr] == nil {
			t.Fatalf("item %d: Decode error %v, want a CorruptItemError naming an attribute of the item", i, err)
		}
		var v T
		if !errors.As(ddb.Unmarshal(tbl, item, &v), &want) || ce.Attr != want.Attr {
			t.Fatalf("item %d: Decode blames %q, ddb.Unmarshal %v", i, ce.Attr, want)
		}
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("item %d %s:\nDecode        %+v\nUnmarshalMap %+v", i, ddb.AttrString(&types.AttributeValueMemberM{Value: item}), got, want)
	}
}

func randomLayout(r *rand.Rand) codecLayout {
	str := func() string { return []string{"", "a", "ü#b", "T#1"}[r.IntN(4)] }
	strs := func() []string {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		return []string{str(), str()}
	}
	elems := func() []codecElem {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return []codecElem{}
		}
		return []codecElem{{Name: str(), Amount: str(), N: r.IntN(3)}, {Name: str()}}
	}
	return codecLayout{codecKeys: codecKeys{PK: str(), SK: str()}, Title: str(), Note: str(),
		Priority: codecPriority(str()), Done: r.IntN(2) == 0, Public: r.IntN(2) == 0, Count: r.Int64N(5) - 2,
		Small: int8(r.IntN(3)), Tags: strs(), Photos: strs(), Elems: elems(), More: elems(), Untagged: str(),
		Skipped: str(), hidden: str()}
}

// randomAttr returns an attribute value of any type, nil (missing) included,
// nested at most depth levels.
func randomAttr(r *rand.Rand, depth int) types.AttributeValue {
	n := 12
	if depth == 0 {
		n = 9
	}
	switch r.IntN(n) {
	case 0:
		return nil
	case 1:
		return &types.AttributeValueMemberS{Value: []string{"", "x", "12"}[r.IntN(3)]}
	case 2:
		return &types.AttributeValueMemberN{Value: []string{"0", "7", "-3", "1.5", "300", "1e2", "99999999999999999999"}[r.IntN(7)]}
	case 3:
		return &types.AttributeValueMemberBOOL{Value: r.IntN(2) == 0}
	case 4:
		return &types.AttributeValueMemberNULL{Value: true}
	case 5:
		return &types.AttributeValueMemberSS{Value: []string{"a", "b"}}
	case 6:
		return &types.AttributeValueMemberNS{Value: []string{"1", "2"}}
	case 7:
		return &types.AttributeValueMemberB{Value: []byte("b")}
	case 8:
		return &types.AttributeValueMemberL{Value: []types.AttributeValue{}}
	case 9:
		l := make([]types.AttributeValue, r.IntN(3)+1)
		for i := range l {
			if l[i] = randomAttr(r, depth-1); l[i] == nil {
				l[i] = &types.AttributeValueMemberS{Value: "s"}
			}
		}
		return &types.AttributeValueMemberL{Value: l}
	case 10:
		m := map[string]types.AttributeValue{}
		for _, k := range []string{"name", "amount", "n", "x"} {
			if av := randomAttr(r, depth-1); av != nil {
				m[k] = av
			}
		}
		return &types.AttributeValueMemberM{Value: m}
	default:
		l := make([]types.AttributeValue, r.IntN(3))
		for i := range l {
			l[i] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"name": &types.AttributeValueMemberS{Value: "n"}, "amount": randomAttr(r, 0)}}
			if l[i].(*types.AttributeValueMemberM).Value["amount"] == nil {
				delete(l[i].(*types.AttributeValueMemberM).Value, "amount")
			}
		}
		return &types.AttributeValueMemberL{Value: l}
	}
}

func BenchmarkCodec(b *testing.B) {
	l := codecLayout{codecKeys: codecKeys{PK: "USER#u1", SK: "RECIPE#r1"}, Title: "Curry", Priority: "high",
		Count: 3, Tags: []string{"a", "b"}, Elems: []codecElem{{Name: "rice", Amount: "1 cup"}}}
	item, _ := attributevalue.MarshalMap(l)
	tbl := ddb.Table{Name: "t", PartitionKey: "pk", SortKey: "sk"}
	c := ddb.NewCodec[codecLayout]()
	b.Run("Decode", func(b *testing.B) {
		for b.Loop() {
			var out codecLayout
			if err := c.Decode(tbl, item, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("UnmarshalMap", func(b *testing.B) {
		for b.Loop() {
			var out codecLayout
			if err := attributevalue.UnmarshalMap(item, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Encode", func(b *testing.B) {
		for b.Loop() {
			if _, err := c.Encode(&l); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MarshalMap", func(b *testing.B) {
		for b.Loop() {
			if _, err := attributevalue.MarshalMap(l); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestCodecPlanned(t *testing.T) {
	if !ddb.NewCodec[codecLayout]().Planned() {
		t.Error("codecLayout is not planned")
	}
	if !ddb.NewCodec[codecLenient]().Planned() {
		t.Error("codecLenient is not planned")
	}
	if ddb.NewCodec[codecWhole]().Planned() {
		t.Error("codecWhole is planned")
	}
}
