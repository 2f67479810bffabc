package iam_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit/iam"
	"github.com/ddbkit/ddbkit/kondate"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/taskmgmt"
	"github.com/ddbkit/ddbkit/todo"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// TestPolicies checks every domain's policy of every interface against its
// recorded grants: each statement's (action, resource) pairs, together,
// are exactly the grants of the interface's methods, nothing missing and
// nothing more; and every method of every interface has grants (the
// domains' TestDynamoStore recorded them, iamrec.Check).
func TestPolicies(t *testing.T) {
	for _, g := range []iam.Grants{todo.Grants(), taskmgmt.Grants(), livecomment.Grants(), kondate.Grants(), wardrobe.Grants()} {
		arns := iam.ARNs{}
		for role := range g.Tables {
			arns[role] = iam.DefaultARN(role)
		}
		if len(g.Interfaces["Store"]) == 0 {
			t.Errorf("%s: no Store interface", g.Domain)
		}
		for iface, methods := range g.Interfaces {
			want := map[string]bool{}
			for _, m := range methods {
				if len(g.Methods[m]) == 0 {
					t.Errorf("%s.%s: method %s has no grants", g.Domain, iface, m)
				}
				for _, gr := range g.Methods[m] {
					res := arns[gr.Table]
					if gr.Index != "" {
						res += "/index/" + gr.Index
					}
					want[gr.Action+" "+res] = true
				}
			}
			doc, err := g.Policy(iface, arns)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, s := range doc.Statement {
				if s.Effect != "Allow" || len(s.Resource) != 1 || s.Sid == "" {
					t.Errorf("%s.%s: statement %+v, want an Allow of one resource with a Sid", g.Domain, iface, s)
				}
				for _, a := range s.Action {
					got[a+" "+s.Resource[0]] = true
				}
			}
			if !maps.Equal(got, want) {
				t.Errorf("%s.%s: policy allows\n%v\nwant exactly\n%v", g.Domain, iface, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
			}
			for k := range got {
				if strings.Contains(k, "TransactWriteItems") || strings.Contains(k, "Scan") {
					t.Errorf("%s.%s: %s: no such grant is needed (transactions need their items' actions; stores never scan)", g.Domain, iface, k)
				}
			}
		}
	}
}

// TestRoleSized: livecomment's reader roles get no write action, as the
// seed's permission table has it.
func TestRoleSized(t *testing.T) {
	g := livecomment.Grants()
	for _, iface := range []string{"RoomReader", "CommentReader", "ConnectionReader", "ConnectionLister"} {
		gs, err := g.For(iface)
		if err != nil {
			t.Fatal(err)
		}
		for _, gr := range gs {
			if a := strings.TrimPrefix(gr.Action, "dynamodb:"); a != "GetItem" && a != "Query" && a != "BatchGetItem" {
				t.Errorf("%s is granted %s on %s", iface, gr.Action, gr.Table)
			}
		}
	}
	if _, err := g.Policy("Nope", nil); err == nil || !strings.Contains(err.Error(), "RoomReader") {
		t.Errorf("Policy of an unknown interface = %v, want an error listing the interfaces", err)
	}
	if _, err := g.Policy("Store", iam.ARNs{}); err == nil {
		t.Error("Policy without the tables' ARNs succeeded")
	}
	writers, err := g.ReadsThroughConditions("RoomStore")
	if err != nil || !slices.Contains(writers, "CreateRoom") || slices.Contains(writers, "GetRoom") {
		t.Errorf("ReadsThroughConditions(RoomStore) = %v, %v; want CreateRoom, not GetRoom", writers, err)
	}
}
