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
