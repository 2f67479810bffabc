package backend

import (
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestWriteQuotedName holds the quoting of a filter's names to
// strconv.Quote: cursors bind the text, so it must not change.
func TestWriteQuotedName(t *testing.T) {
	for _, s := range []string{"", "PK", "wearCount", "a.b", "#x", "say \"hi\"", `back\slash`, "tab\there", "名前", "del\x7f", "~ok~"} {
		var b strings.Builder
		writeQuotedName(&b, s)
		if got, want := b.String(), strconv.Quote(s); got != want {
			t.Errorf("writeQuotedName(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestNargs holds a filter's argument count to what args appends.
func TestNargs(t *testing.T) {
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	for _, f := range []Filter{
		{},
		Missing("a"),
		Present("a"),
		Equal("a", n("1")),
		And(Equal("a", n("1")), Missing("b"), Or(Greater("c", n("2")), Not(Equal("d", n("3"))))),
		Unbound(Unexpired("ttl", 5)),
	} {
		if got, want := f.nargs(), len(f.args(nil)); got != want {
			t.Errorf("%s: nargs = %d, args appends %d", f.binding(), got, want)
		}
	}
}
