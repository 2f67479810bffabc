package backend

import (
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestIntegerFastPaths holds add and compare's integer arithmetic to
// big.Rat's, at and around int64's limits, where it must give way.
func TestIntegerFastPaths(t *testing.T) {
	vals := []string{"0", "1", "-1", "7", "-42", "9223372036854775807", "-9223372036854775808", "9223372036854775806",
		"-9223372036854775807", "9223372036854775808", "1.5", "-0.25", "100000000000000000000000000000000000000"}
	for _, a := range vals {
		for _, b := range vals {
			x, _ := new(big.Rat).SetString(a)
			y, _ := new(big.Rat).SetString(b)
			want := new(big.Rat).Add(x, y)
			got, err := add(&types.AttributeValueMemberN{Value: a}, b)
			if err != nil {
				t.Fatalf("add(%s, %s): %v", a, b, err)
			}
			if g, _ := new(big.Rat).SetString(got.(*types.AttributeValueMemberN).Value); g.Cmp(want) != 0 {
				t.Errorf("add(%s, %s) = %s, want %s", a, b, got.(*types.AttributeValueMemberN).Value, want.RatString())
			}
			if c := compare(&types.AttributeValueMemberN{Value: a}, &types.AttributeValueMemberN{Value: b}); c != x.Cmp(y) {
				t.Errorf("compare(%s, %s) = %d, want %d", a, b, c, x.Cmp(y))
			}
		}
	}
	if got, _ := add(nil, strconv.FormatInt(math.MinInt64, 10)); got.(*types.AttributeValueMemberN).Value != "-9223372036854775808" {
		t.Errorf("add(missing, MinInt64) = %v", got)
	}
}
