package backend

import (
	"testing"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestPreparedNames holds the expressions of writes to their tables'
// names: bare where DynamoDB reads them bare, placeholders otherwise, and
// the shapes keyOnlyShapes keeps per condition never carried over to a table
// whose partition key is named otherwise.
func TestPreparedNames(t *testing.T) {
	var change Change
	change.Add("todo", 1)
	change.Set("type", ddb.S("counter"))
	tests := []struct {
		pk   string
		cond Cond
		u    Change
		want string // the condition, or the update where there is a change
		// names wanted in ExpressionAttributeNames
		names []string
	}{
		{pk: "PK", cond: Absent(), want: "attribute_not_exists (PK)"},
		{pk: "pk", cond: Absent(), want: "attribute_not_exists (pk)"},
		{pk: "PK", cond: Exists(nil), want: "attribute_exists (PK)"},
		{pk: "type", cond: Exists(nil), want: "attribute_exists (#0)", names: []string{"type"}},
		{pk: "PK", cond: Exists(nil), want: "attribute_exists (PK)"},
		{pk: "PK", cond: Absent(), want: "attribute_not_exists (PK)"},
		{pk: "PK", cond: Cond{}, u: change, want: "ADD todo :0\nSET #1 = :1\n", names: []string{"type"}},
	}
	for _, tt := range tests {
		p, _ := prepared(ddb.Table{Name: "t", PartitionKey: tt.pk}, tt.cond, tt.u)
		got := p.Condition()
		if !tt.u.Empty() {
			got = p.Update()
		}
		if got == nil || *got != tt.want {
			t.Errorf("on a table keyed by %s: expression %q, want %q", tt.pk, deref(got), tt.want)
		}
		var names []string
		for _, n := range p.Names() {
			names = append(names, n)
		}
		if len(names) != len(tt.names) || len(names) > 0 && names[0] != tt.names[0] {
			t.Errorf("on a table keyed by %s, %q: names %v, want %v", tt.pk, tt.want, names, tt.names)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
