package kondate

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// fill sets every field of the struct v points to: strings to their
// field's name, bools true, ints 42, slices of n elements (n < 0: nil,
// n == 0: empty), recursively.
func fill(v reflect.Value, n int) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Field(i)
			switch f.Kind() {
			case reflect.String:
				f.SetString(v.Type().Field(i).Name + " 値")
			default:
				fill(f, n)
			}
		}
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int64:
		v.SetInt(42)
	case reflect.Slice:
		if n < 0 {
			return
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			e := s.Index(i)
			if e.Kind() == reflect.String {
				e.SetString("要素")
			} else {
				fill(e, n)
			}
		}
		v.Set(s)
	}
}

// TestLayoutCodecs holds each layout's ddb.Codec to attributevalue's
// MarshalMap and UnmarshalMap, for items with every field set, with empty
// lists, with nil lists, and for the zero value, and checks that it is
// planned: that no layout falls back to attributevalue's reflection.
func TestLayoutCodecs(t *testing.T) {
	checkLayout[profileItem](t)
	checkLayout[recipeItem](t)
	checkLayout[setItem](t)
	checkLayout[planItem](t)
	checkLayout[shoppingItem](t)
	checkLayout[fridgeItem](t)
	checkLayout[categoryItem](t)
	checkLayout[cookLogItem](t)
	checkLayout[paymentMethodItem](t)
	checkLayout[purchaseItem](t)
	checkLayout[subscriptionItem](t)
	checkLayout[notificationItem](t)
	checkLayout[notificationSettingsItem](t)
	checkLayout[pushTokenItem](t)
	checkLayout[catalogItem](t)
	checkLayout[savedItem](t)
	checkLayout[shareItem](t)
}

func checkLayout[T any](t *testing.T) {
	c := ddb.NewCodec[T]()
	t.Run(reflect.TypeFor[T]().Name(), func(t *testing.T) {
		if !c.Planned() {
			t.Error("the codec is not planned: attributevalue's reflection encodes or decodes it")
		}
		for _, n := range []int{2, 0, -1, -2} {
			var v T
			if n > -2 {
				fill(reflect.ValueOf(&v).Elem(), n)
			}
			want, err := attributevalue.MarshalMap(v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Encode(&v)
			if err != nil || !ddb.ItemsEqual(got, want) {
				t.Errorf("fill %d: Encode = %v, %v\nwant %v", n, render(got), err, render(want))
			}
			var fast, slow T
			if err := attributevalue.UnmarshalMap(want, &slow); err != nil {
				t.Fatal(err)
			}
			if err := c.Decode(ddb.Table{Name: "t", PartitionKey: AttrPK, SortKey: AttrSK}, want, &fast); err != nil {
				t.Fatalf("fill %d: Decode: %v", n, err)
			}
			if !reflect.DeepEqual(fast, slow) {
				t.Errorf("fill %d: Decode = %+v, want %+v", n, fast, slow)
			}
		}
	})
}

// render prints an item canonically, for failure messages.
func render(item ddb.Item) string {
	return ddb.AttrString(&types.AttributeValueMemberM{Value: item})
}

// TestLenientLists: the lists the seed leaves unshaped are written in one
// shape and read from every shape the app plausibly writes; other shapes
// are errors, which make the item corrupt.
func TestLenientLists(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	m := func(kv ...types.AttributeValue) types.AttributeValue {
		out := map[string]types.AttributeValue{}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i].(*types.AttributeValueMemberS).Value] = kv[i+1]
		}
		return &types.AttributeValueMemberM{Value: out}
	}
	l := func(vs ...types.AttributeValue) types.AttributeValue { return &types.AttributeValueMemberL{Value: vs} }
	n := &types.AttributeValueMemberN{Value: "2"}
	for _, tc := range []struct {
		name string
		av   types.AttributeValue
		want []Ingredient // nil with ok false: an error
		ok   bool
	}{
		{"documented", l(m(s("name"), s("卵"), s("amount"), s("2個"))), []Ingredient{{"卵", "2個"}}, true},
		{"strings", l(s("卵"), s("塩")), []Ingredient{{Name: "卵"}, {Name: "塩"}}, true},
		{"string set", &types.AttributeValueMemberSS{Value: []string{"卵"}}, []Ingredient{{Name: "卵"}}, true},
		{"no amount, extra keys", l(m(s("name"), s("卵"), s("note"), s("新鮮"))), []Ingredient{{Name: "卵"}}, true},
		{"number amount", l(m(s("name"), s("卵"), s("amount"), n)), []Ingredient{{"卵", "2"}}, true},
		{"NULL element and amount", l(null, m(s("name"), s("卵"), s("amount"), null)), []Ingredient{{Name: "卵"}}, true},
		{"NULL list", null, nil, true},
		{"numbers", l(n), nil, false},
		{"map name", l(m(s("name"), m())), nil, false},
		{"a string", s("卵"), nil, false},
	} {
		var got ingredientList
		err := got.UnmarshalDynamoDBAttributeValue(tc.av)
		if (err == nil) != tc.ok || !reflect.DeepEqual([]Ingredient(got), tc.want) {
			t.Errorf("%s: got %+v, %v; want %+v (ok %v)", tc.name, got, err, tc.want, tc.ok)
		}
	}
	items := setItemList{{RecipeID: "r_1", Title: "卵焼き"}, {Title: "漬物"}}
	av, err := items.MarshalDynamoDBAttributeValue()
	var back setItemList
	if err != nil || back.UnmarshalDynamoDBAttributeValue(av) != nil || !reflect.DeepEqual(back, items) {
		t.Fatalf("setItemList round trip: %v -> %v -> %v, %v", items, render(ddb.Item{"items": av}), back, err)
	}
	var named setItemList
	if err := named.UnmarshalDynamoDBAttributeValue(l(m(s("name"), s("漬物")), s("ご飯"))); err != nil ||
		!reflect.DeepEqual(named, setItemList{{Title: "漬物"}, {Title: "ご飯"}}) {
		t.Fatalf("setItemList of a name and a string = %+v, %v", named, err)
	}
}
