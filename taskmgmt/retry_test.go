package taskmgmt_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// allOps is every operation of the DynamoDB store (task table and
// invitation table) on the fixture of retryFixture. The stream handler
// makes no store call: its only DynamoDB-facing work is decoding the
// records it is given.
func allOps(s taskmgmt.Store, inv *taskmgmt.Invitation) map[string]func(ctx context.Context) error {
	ops := operations(s)
	maps.Copy(ops, invitationOps(s, inv))
	// SetRole of the second admin, besides operations' of the first.
	ops["SetRole of an admin"] = func(ctx context.Context) error {
		_, err := s.SetRole(ctx, "id01", "u1", "u4", taskmgmt.RoleMember)
		return err
	}
	return ops
}

// retryFixture is fixture (u1 admin of id01, u2, tag id02, task id03),
// plus u3 a user, u4 a second admin (so that demoting or removing u1
// reaches its transaction) and an invitation
// (id04) of carol.
func retryFixture(t *testing.T, s taskmgmt.Store) taskmgmt.Invitation {
	t.Helper()
	fixture(t, s)
	ctx := t.Context()
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u3", Email: "carol@example.com", Name: "carol"}))
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u4", Email: "dave@example.com", Name: "dave"}))
	must[taskmgmt.Member](t)(s.AddMember(ctx, "id01", "u1", "u4", taskmgmt.RoleAdmin))
	return must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
}

// TestRetriesKeepTheirBound runs every operation against a DynamoDB that
// always throttles, and one whose transactions always conflict, with
// MaxAttempts 3: each call the store makes belongs to exactly one retry
// loop, so no kind of call is made more than MaxAttempts times per step
// (a step being one call of that kind on the operation's path without
// faults, measured first on a twin fixture). Nested loops (a domain loop
// around ExecTx, QueryPage or BatchWrite, which retry themselves) made up
// to MaxAttempts² or more.
func TestRetriesKeepTheirBound(t *testing.T) {
	const attempts = 3
	policy := func(o *taskmgmt.Options) {
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: attempts, BaseDelay: time.Microsecond, MaxDelay: time.Microsecond}
	}
	type rig struct {
		s   *taskmgmt.DynamoStore
		fc  *ddbtest.FaultClient
		cc  *ddbtest.CountingClient
		inv taskmgmt.Invitation
	}
	newRig := func(t *testing.T) rig {
		var r rig
		r.s, _, _, _ = newDynamoInv(t, func(c ddbkit.Client) ddbkit.Client {
			r.fc = ddbtest.NewFaultClient(c)
			r.cc = ddbtest.NewCountingClient(r.fc)
			return r.cc
		}, deterministic, policy)
		r.inv = retryFixture(t, r.s)
		r.cc.Reset()
		return r
	}
	names := slices.Sorted(maps.Keys(allOps(nil, &taskmgmt.Invitation{})))
	faults := []struct {
		name   string
		inject func(*ddbtest.FaultClient)
		want   error
	}{
		{"always throttled", func(fc *ddbtest.FaultClient) {
			fc.Always(ddbtest.Throttle)
		}, ddbkit.ErrUnavailable},
		{"transactions always conflict", func(fc *ddbtest.FaultClient) {
			fc.Always(ddbtest.TxConflict)
		}, ddbkit.ErrConflict},
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// The steps: the calls of each kind on the path without faults.
			clean := newRig(t)
			if err := allOps(clean.s, &clean.inv)[name](t.Context()); err != nil && !errors.Is(err, ddbkit.ErrConflict) {
				t.Fatalf("%s without faults: %v", name, err)
			}
			steps := clean.cc.Counts()
			for _, f := range faults {
				r := newRig(t)
				f.inject(r.fc)
				err := allOps(r.s, &r.inv)[name](t.Context())
				got := r.cc.Counts()
				for op, n := range got {
					// Under throttling the first call fails: its step is
					// repeated, nothing after it runs.
					bound := attempts * max(steps[op], 1)
					if n > bound {
						t.Errorf("%s, %s: %d %s calls, want at most %d (MaxAttempts %d × %d steps); calls %v",
							name, f.name, n, op, bound, attempts, steps[op], got)
					}
				}
				if total, want := sum(got), attempts*max(sum(steps), 1); total > want {
					t.Errorf("%s, %s: %d calls in all, want at most %d; calls %v", name, f.name, total, want, got)
				}
				switch {
				case f.want == ddbkit.ErrUnavailable:
					ddbtest.WantSentinel(t, name+" "+f.name, err, ddbkit.ErrUnavailable)
					if n := sum(got); n > attempts {
						t.Errorf("%s, %s: %d calls, want at most %d: the first step fails every time; calls %v", name, f.name, n, attempts, got)
					}
				case got["TransactWriteItems"] > 0:
					ddbtest.WantSentinel(t, name+" "+f.name, err, ddbkit.ErrConflict)
					if n := got["TransactWriteItems"]; n != attempts {
						t.Errorf("%s, %s: %d transactions, want %d", name, f.name, n, attempts)
					}
				}
			}
		})
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
