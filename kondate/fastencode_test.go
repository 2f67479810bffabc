package kondate

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
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

// TestFastCodec holds each layout's direct encoding to
// attributevalue.MarshalMap's and its direct decoding to UnmarshalMap's,
// for items with every field set, with empty lists, with nil lists, and
// for the zero value.
func TestFastCodec(t *testing.T) {
	layouts := []any{profileItem{}, recipeItem{}, setItem{}, planItem{}, shoppingItem{}, fridgeItem{}, categoryItem{},
		cookLogItem{}, paymentMethodItem{}, purchaseItem{}, subscriptionItem{}, notificationItem{}, notificationSettingsItem{},
		pushTokenItem{}, catalogItem{}, savedItem{}, shareItem{}}
	for _, l := range layouts {
		for _, n := range []int{2, 0, -1, -2} {
			v := reflect.New(reflect.TypeOf(l))
			if n > -2 {
				fill(v.Elem(), n)
			}
			t.Run(v.Elem().Type().Name(), func(t *testing.T) {
				want, err := attributevalue.MarshalMapWithOptions(v.Elem().Interface(), func(o *attributevalue.EncoderOptions) { o.NullEmptySets = false })
				if err != nil {
					t.Fatal(err)
				}
				got := v.Elem().Interface().(fastEncoder).fastEncode()
				if !ddb.ItemsEqual(got, want) {
					t.Errorf("fill %d: fastEncode =\n%v\nwant\n%v", n, render(got), render(want))
				}
				// Decoding what MarshalMap wrote gives the struct UnmarshalMap gives.
				slow := reflect.New(v.Elem().Type())
				if err := attributevalue.UnmarshalMap(want, slow.Interface()); err != nil {
					t.Fatal(err)
				}
				fast := reflect.New(v.Elem().Type())
				if !fast.Interface().(fastDecoder).fastDecode(want) {
					if n == -1 || n == -2 {
						return // NULL lists: the fast path leaves them to UnmarshalMap
					}
					t.Fatalf("fill %d: fastDecode refused %v", n, render(want))
				}
				if !reflect.DeepEqual(normal(fast.Elem()), normal(slow.Elem())) {
					t.Errorf("fill %d: fastDecode = %+v, want %+v", n, fast.Elem().Interface(), slow.Elem().Interface())
				}
			})
		}
	}
}

// normal maps empty slices to nil: the stores read every list through
// orNil, so the two decoders need only agree up to that.
func normal(v reflect.Value) any {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	var walk func(reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice:
			if v.Len() == 0 {
				v.Set(reflect.Zero(v.Type()))
			}
		}
	}
	walk(c)
	return c.Interface()
}

// TestParseCanonical: wherever the fast parse of the canonical form
// answers, it answers what keys.ParseTime does.
func TestParseCanonical(t *testing.T) {
	for _, s := range []string{"2026-02-09T10:00:00.000Z", "2024-02-29T23:59:59.999Z", "0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z",
		"2026-02-30T10:00:00.000Z", "2025-02-29T10:00:00.000Z", "2026-13-09T10:00:00.000Z", "2026-02-09T24:00:00.000Z",
		"2026-02-09T10:60:00.000Z", "2026-02-09T10:00:60.000Z", "2026-02-09T10:00:00.00aZ", "2026-02-09T10:00:00Z",
		"2026-02-09T10:00:00.000+09:00", "2026-02-09 10:00:00.000Z", "+026-02-09T10:00:00.000Z", "2026-00-09T10:00:00.000Z"} {
		got, ok := parseCanonical(s)
		want, err := keys.ParseTime(s)
		if ok && (err != nil || !got.Equal(want) || got != want) {
			t.Errorf("parseCanonical(%q) = %v, want %v (err %v)", s, got, want, err)
		}
		if !ok && s == "2026-02-09T10:00:00.000Z" {
			t.Errorf("parseCanonical(%q) refused the canonical form", s)
		}
	}
}

// render prints an item canonically, for failure messages.
func render(item ddb.Item) string {
	return ddb.AttrString(&types.AttributeValueMemberM{Value: item})
}
