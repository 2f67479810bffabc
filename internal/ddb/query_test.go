package ddb_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

func TestQueryPageInput(t *testing.T) {
	filter := &ddb.Filter{Shape: "test: v = x", Args: []types.AttributeValue{ddb.S("x")},
		Cond: func(first int) expression.ConditionBuilder { return expression.Name("v").Equal(ddb.Param(first)) }}
	tests := []struct {
		name          string
		q             ddb.KeyQuery
		filter        *ddb.Filter
		wantIndex     *string
		wantForward   bool
		wantConsisent *bool
		wantFilter    bool
	}{
		{name: "base", q: ddb.KeyQuery{Table: curTable, PartitionValue: "p"}, wantForward: true},
		{name: "base, consistent, descending", q: ddb.KeyQuery{Table: curTable, PartitionValue: "p", ConsistentRead: true, Descending: true},
			wantConsisent: aws.Bool(true)},
		{name: "index ignores ConsistentRead", q: ddb.KeyQuery{Table: curTable, Index: curIndex, PartitionValue: "g", ConsistentRead: true, Sort: ddb.SortGT("x")},
			wantIndex: aws.String(curIndex.Name), wantForward: true},
		{name: "filter", q: ddb.KeyQuery{Table: curTable, PartitionValue: "p", Sort: ddb.SortBeginsWith("a#")}, filter: filter,
			wantForward: true, wantFilter: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &stubClient{query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) { return &dynamodb.QueryOutput{}, nil }}
			items, next, err := ddb.QueryPage(context.Background(), s, fastPolicy, tt.q, 10, "", tt.filter)
			if err != nil || len(items) != 0 || next != "" {
				t.Fatalf("QueryPage() = (%v, %q, %v), want an empty last page", items, next, err)
			}
			if len(s.queries) != 1 {
				t.Fatalf("QueryPage() made %d calls, want 1", len(s.queries))
			}
			in := s.queries[0]
			if got := aws.ToString(in.TableName); got != tt.q.Table.Name {
				t.Errorf("TableName = %q, want %q", got, tt.q.Table.Name)
			}
			if !reflect.DeepEqual(in.IndexName, tt.wantIndex) {
				t.Errorf("IndexName = %v, want %v", aws.ToString(in.IndexName), aws.ToString(tt.wantIndex))
			}
			if got := aws.ToBool(in.ScanIndexForward); in.ScanIndexForward == nil || got != tt.wantForward {
				t.Errorf("ScanIndexForward = %v, want %t", in.ScanIndexForward, tt.wantForward)
			}
			if !reflect.DeepEqual(in.ConsistentRead, tt.wantConsisent) {
				t.Errorf("ConsistentRead = %v, want %v", in.ConsistentRead, tt.wantConsisent)
			}
			if got := aws.ToInt32(in.Limit); got != 11 {
				t.Errorf("Limit = %d, want 11 (one beyond the page)", got)
			}
			if in.ExclusiveStartKey != nil {
				t.Errorf("ExclusiveStartKey = %v, want nil on the first page", in.ExclusiveStartKey)
			}
			if got := in.FilterExpression != nil; got != tt.wantFilter {
				t.Errorf("FilterExpression = %v, want set: %t", aws.ToString(in.FilterExpression), tt.wantFilter)
			}
			if in.KeyConditionExpression == nil {
				t.Error("KeyConditionExpression = nil, want set")
			}
			// The partition value is bound as a value, never spliced in.
			found := false
			for _, v := range in.ExpressionAttributeValues {
				if reflect.DeepEqual(v, ddb.S(tt.q.PartitionValue)) {
					found = true
				}
			}
			if !found {
				t.Errorf("ExpressionAttributeValues = %v, want the partition value %q", in.ExpressionAttributeValues, tt.q.PartitionValue)
			}
		})
	}
}

func TestQueryPageCursor(t *testing.T) {
	q := ddb.KeyQuery{Table: curTable, PartitionValue: "p"}
	page := []ddb.Item{item("p", "1"), item("p", "2"), item("p", "3")}
	s := &stubClient{query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
		return &dynamodb.QueryOutput{Items: page, LastEvaluatedKey: tblA.KeyOf(page[2])}, nil
	}}
	items, next, err := ddb.QueryPage(context.Background(), s, fastPolicy, q, 2, "", nil)
	if err != nil {
		t.Fatalf("QueryPage() error = %v", err)
	}
	if !reflect.DeepEqual(items, page[:2]) {
		t.Errorf("items = %v, want the first two", items)
	}
	// Next is positioned after the last item of the page, not the one read
	// beyond it.
	if want := encode(t, q, tblA.KeyOf(page[1])); next != want {
		t.Errorf("Next = %q, want the cursor of the page's last item %q", next, want)
	}
	if _, _, err := ddb.QueryPage(context.Background(), s, fastPolicy, q, 2, next, nil); err != nil {
		t.Fatalf("QueryPage(next) error = %v", err)
	}
	if got := s.queries[1].ExclusiveStartKey; !reflect.DeepEqual(got, tblA.KeyOf(page[1])) {
		t.Errorf("ExclusiveStartKey = %v, want %v", got, tblA.KeyOf(page[1]))
	}
}

func TestQueryPageInvalidCursor(t *testing.T) {
	q := ddb.KeyQuery{Table: curTable, PartitionValue: "p"}
	other := q
	other.PartitionValue = "q"
	tests := []struct {
		name   string
		cursor string
	}{
		{name: "garbage", cursor: "garbage"},
		{name: "other partition", cursor: encode(t, other, ddb.Item{"pk": ddb.S("q"), "sk": ddb.S("1")})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &stubClient{}
			_, _, err := ddb.QueryPage(context.Background(), s, fastPolicy, q, 10, tt.cursor, nil)
			if !errors.Is(err, ddbkit.ErrInvalidCursor) {
				t.Errorf("QueryPage() error = %v, want ErrInvalidCursor", err)
			}
			if n := s.calls(); n != 0 {
				t.Errorf("QueryPage() made %d calls, want 0", n)
			}
		})
	}
}

// TestQueryPageFilterFillsPage models a filter that keeps one item per call:
// QueryPage goes on until it has one item beyond the page.
func TestQueryPageFilterFillsPage(t *testing.T) {
	q := ddb.KeyQuery{Table: curTable, PartitionValue: "p"}
	filter := &ddb.Filter{Shape: "test: v exists",
		Cond: func(int) expression.ConditionBuilder { return expression.Name("v").AttributeExists() }}
	const total = 10
	tests := []struct {
		name      string
		limit     int
		wantItems int
		wantNext  bool
		wantCalls int
	}{
		{name: "page in the middle", limit: 3, wantItems: 3, wantNext: true, wantCalls: 4},
		{name: "page of exactly the rest", limit: total, wantItems: total, wantNext: false, wantCalls: total},
		{name: "page larger than the rest", limit: 50, wantItems: total, wantNext: false, wantCalls: total},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &stubClient{}
			s.query = func(in *dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
				i := len(s.queries) - 1 // this call's number, 0-based
				out := &dynamodb.QueryOutput{Items: []ddb.Item{item("p", fmt.Sprint(i))}}
				if i < total-1 {
					out.LastEvaluatedKey = tblA.Key("p", fmt.Sprint(i))
				}
				return out, nil
			}
			items, next, err := ddb.QueryPage(context.Background(), s, fastPolicy, q, tt.limit, "", filter)
			if err != nil {
				t.Fatalf("QueryPage() error = %v", err)
			}
			if len(items) != tt.wantItems || (next != "") != tt.wantNext {
				t.Errorf("QueryPage() = %d items, Next %q; want %d items, Next set: %t", len(items), next, tt.wantItems, tt.wantNext)
			}
			if len(s.queries) != tt.wantCalls {
				t.Errorf("QueryPage() made %d calls, want %d", len(s.queries), tt.wantCalls)
			}
			for i, in := range s.queries {
				want := int32(tt.limit + 1 - i)
				if i > 0 {
					want = max(want, ddb.MinFollowUp) // a follow-up reads at least MinFollowUp
				}
				if aws.ToInt32(in.Limit) != want {
					t.Errorf("call %d: Limit = %d, want %d", i, aws.ToInt32(in.Limit), want)
				}
				if i > 0 && !reflect.DeepEqual(in.ExclusiveStartKey, tblA.Key("p", fmt.Sprint(i-1))) {
					t.Errorf("call %d: ExclusiveStartKey = %v, want the previous LastEvaluatedKey", i, in.ExclusiveStartKey)
				}
			}
		})
	}
}

// TestQueryPageBudget: a filtered page that nothing matches evaluates at
// most its budget, whatever the partition's size, and returns no items
// with a cursor after the last item evaluated; the follow-ups read at
// least MinFollowUp and never beyond the budget. A throttled Query is
// retried on its own, not the page.
func TestQueryPageBudget(t *testing.T) {
	filter := &ddb.Filter{Shape: "test: v exists",
		Cond: func(int) expression.ConditionBuilder { return expression.Name("v").AttributeExists() }}
	tests := []struct {
		name       string
		budget     int
		wantLimits []int32
	}{
		{name: "default", budget: 0, wantLimits: []int32{11, 100, 100, 100, 100, 100, 100, 100, 100, 100, 89}},
		{name: "small", budget: 30, wantLimits: []int32{11, 19}},
		{name: "below the page", budget: 5, wantLimits: []int32{5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := ddb.KeyQuery{Table: curTable, PartitionValue: "p", Budget: tt.budget}
			s := &stubClient{}
			read := 0
			throttled := false
			s.query = func(in *dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
				if len(s.queries) == 3 && !throttled { // the third call
					throttled = true
					return nil, &types.ProvisionedThroughputExceededException{Message: aws.String("slow down")}
				}
				// A partition of a million items, none of which matches.
				n := aws.ToInt32(in.Limit)
				read += int(n)
				return &dynamodb.QueryOutput{ScannedCount: n, LastEvaluatedKey: tblA.Key("p", fmt.Sprintf("%07d", read-1))}, nil
			}
			items, next, err := ddb.QueryPage(context.Background(), s, fastPolicy, q, 10, "", filter)
			if err != nil {
				t.Fatalf("QueryPage() error = %v", err)
			}
			if len(items) != 0 || next == "" {
				t.Fatalf("QueryPage() = %d items, Next %q; want none, and a Next", len(items), next)
			}
			var limits []int32
			for i, in := range s.queries {
				if i == 2 && len(tt.wantLimits) > 2 {
					continue // the throttled call, repeated next
				}
				limits = append(limits, aws.ToInt32(in.Limit))
			}
			if !slices.Equal(limits, tt.wantLimits) {
				t.Errorf("Query Limits = %v, want %v", limits, tt.wantLimits)
			}
			key, err := ddb.DecodeCursor(q, next)
			if err != nil || !reflect.DeepEqual(key, tblA.Key("p", fmt.Sprintf("%07d", read-1))) {
				t.Errorf("Next decodes to %v (%v), want the last key evaluated", key, err)
			}
		})
	}
}

func TestQueryPageCallError(t *testing.T) {
	s := &stubClient{query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) { return nil, context.DeadlineExceeded }}
	_, _, err := ddb.QueryPage(context.Background(), s, fastPolicy, ddb.KeyQuery{Table: curTable, PartitionValue: "p"}, 10, "", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("QueryPage() error = %v, want it to wrap the call's error", err)
	}
}

// TestQueryPageBadLimit pins that a limit below one is refused as bad input
// before any call (PageOptions.EffectiveLimit never yields one, but
// QueryPage is exported to every domain).
func TestQueryPageBadLimit(t *testing.T) {
	for _, limit := range []int{0, -1} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			s := &stubClient{query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
				return &dynamodb.QueryOutput{Items: []ddb.Item{item("p", "1"), item("p", "2")}}, nil
			}}
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("QueryPage(limit %d) panicked: %v", limit, r)
					}
				}()
				_, _, err = ddb.QueryPage(context.Background(), s, fastPolicy, ddb.KeyQuery{Table: curTable, PartitionValue: "p"}, limit, "", nil)
			}()
			if !errors.Is(err, ddbkit.ErrInvalidArgument) {
				t.Errorf("QueryPage(limit %d) error = %v, want ErrInvalidArgument", limit, err)
			}
			if n := s.calls(); n != 0 {
				t.Errorf("QueryPage(limit %d) made %d calls, want 0", limit, n)
			}
		})
	}
}

// TestQueryPageLiteralKeyNames: key attribute names are attribute names,
// never document paths: a "." or a "[n]" in one is sent as part of the
// name (expression.Key keeps its name whole), not as a map field or a
// list index.
func TestQueryPageLiteralKeyNames(t *testing.T) {
	tbl := ddb.Table{Name: "t", PartitionKey: "p.k[0]", SortKey: "s.k"}
	idx := ddb.Index{Name: "i", PartitionKey: "g.p", SortKey: "g[1]"}
	for _, tt := range []struct {
		name   string
		q      ddb.KeyQuery
		pk, sk string
	}{
		{"table, begins_with", ddb.KeyQuery{Table: tbl, PartitionValue: "p", Sort: ddb.SortBeginsWith("a")}, "p.k[0]", "s.k"},
		{"table, between", ddb.KeyQuery{Table: tbl, PartitionValue: "p", Sort: ddb.SortBetween("a", "b")}, "p.k[0]", "s.k"},
		{"index, gt", ddb.KeyQuery{Table: tbl, Index: idx, PartitionValue: "g", Sort: ddb.SortGT("a")}, "g.p", "g[1]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := &stubClient{query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) { return &dynamodb.QueryOutput{}, nil }}
			if _, _, err := ddb.QueryPage(context.Background(), s, fastPolicy, tt.q, 10, "", nil); err != nil {
				t.Fatalf("QueryPage() = %v", err)
			}
			in := s.queries[0]
			var names []string
			for _, n := range in.ExpressionAttributeNames {
				names = append(names, n)
			}
			slices.Sort(names)
			if want := []string{tt.pk, tt.sk}; !slices.Equal(names, want) {
				t.Errorf("ExpressionAttributeNames = %v, want %q", in.ExpressionAttributeNames, want)
			}
			if kc := aws.ToString(in.KeyConditionExpression); strings.ContainsAny(kc, ".[") {
				t.Errorf("KeyConditionExpression = %q, want no path syntax", kc)
			}
		})
	}
}
