package taskmgmt_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"pgregory.net/rapid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/difftest"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// TestModel runs random sequences of every operation of both tables on
// the memory store and on DynamoDB Local side by side, and requires the
// same results and, at checkpoints, the same items (package difftest).
func TestModel(t *testing.T) {
	difftest.Check(t, modelConfig("newModelPair(t)", newModelPair))
}

// TestModelFaults is TestModel with throttling, transaction conflicts,
// unprocessed items, 500s and lost responses injected on the DynamoDB
// side, which its retries must hide.
func TestModelFaults(t *testing.T) {
	difftest.Check(t, modelConfig("newFaultPair(t)", newFaultPair))
}

// TestModelSharded is TestModel with sharded counters
// (Options.CounterShards), whose daily pages merge the shards.
func TestModelSharded(t *testing.T) {
	difftest.Check(t, modelConfig("newShardedPair(t)", newShardedPair))
}

// TestModelFaultsSharded is TestModelFaults with sharded counters.
func TestModelFaultsSharded(t *testing.T) {
	difftest.Check(t, modelConfig("newShardedFaultPair(t)", newShardedFaultPair))
}

// newModelPair returns the stores a model run compares; the regression
// tests difftest prints call it too.
func newModelPair(t *testing.T) *difftest.Pair[taskmgmt.Store] { return modelPair(t, false) }

// newFaultPair is newModelPair with a fault client under the DynamoDB store.
func newFaultPair(t *testing.T) *difftest.Pair[taskmgmt.Store] { return modelPair(t, true) }

// newShardedPair is newModelPair with three counter shards.
func newShardedPair(t *testing.T) *difftest.Pair[taskmgmt.Store] {
	return modelPair(t, false, func(o *taskmgmt.Options) { o.CounterShards = 3 })
}

// newShardedFaultPair is newFaultPair with three counter shards.
func newShardedFaultPair(t *testing.T) *difftest.Pair[taskmgmt.Store] {
	return modelPair(t, true, func(o *taskmgmt.Options) { o.CounterShards = 3 })
}

// modelStart is the model's first instant: in the future, so that
// DynamoDB Local's TTL (were it on) could not delete what the runs write.
var modelStart = time.Date(2031, 3, 10, 9, 0, 0, 0, time.UTC)

// jst is the stores' Location: "today" changes at 15:00 UTC.
var jst = time.FixedZone("JST", 9*60*60)

func modelPair(t *testing.T, faults bool, more ...func(*taskmgmt.Options)) *difftest.Pair[taskmgmt.Store] {
	t.Helper()
	c := ddbtest.Client(t)
	table := ddbtest.NewTable(t, c, taskmgmt.CreateTableInput("task-table-v3"))
	invTable := ddbtest.NewTable(t, c, taskmgmt.CreateInvitationTableInput("task-table-invitation-v3"))
	clock := difftest.NewClock(modelStart)
	// DynamoDB Local keeps idempotency tokens for ten minutes of real time:
	// a check's time between two Advances must stay well short of that.
	clock.Step = 10 * time.Millisecond
	opts := func() func(*taskmgmt.Options) {
		n := 0
		ids := ddbkit.SeededUUIDv7s(7, clock.Now) // a generator per store, same seed
		return func(o *taskmgmt.Options) {
			o.TableName, o.InvitationTableName = table, invTable
			o.Clock = clock.Now
			o.Location = jst
			o.NewID = ids
			o.NewToken = func() string { n++; return fmt.Sprint("token-", n) }
			o.Retry = ddbkit.RetryPolicy{MaxAttempts: 10, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}
			for _, fn := range more {
				fn(o)
			}
		}
	}
	mem := taskmgmt.NewMemoryStore(opts())
	p := &difftest.Pair[taskmgmt.Store]{Mem: mem, Export: mem.Export, DB: c, Tables: []string{table, invTable}, Clock: clock}
	var client ddbkit.Client = c
	if faults {
		fc := ddbtest.NewFaultClient(c)
		p.Faults = difftest.NewFaults(fc, ddbtest.Throttle, ddbtest.TxConflict, ddbtest.InternalError, ddbtest.Unprocessed, ddbtest.LoseResponse)
		client = fc
	}
	p.Dyn = taskmgmt.NewDynamoStore(client, opts())
	return p
}

// checkNonce makes each check's idempotency keys its own: DynamoDB Local
// remembers tokens across tables.
var checkNonce atomic.Int64

func modelConfig(src string, pair func(*testing.T) *difftest.Pair[taskmgmt.Store]) difftest.Config[taskmgmt.Store] {
	return difftest.Config[taskmgmt.Store]{Domain: "taskmgmt", New: pair, Source: src, Actions: modelActions}
}

// invitationRef is what a check knows of an invitation it made.
type invitationRef struct{ teamID, id, token string }

// modelActions returns the actions of one check. Its model is the IDs,
// names and tokens the check has used, drawn again to make operations
// collide.
func modelActions(r *difftest.Run[taskmgmt.Store]) map[string]func(*rapid.T) {
	users := []string{"u1", "u2", "u3"}
	emails := []string{"a@example.com", "b@example.com"}
	var teamIDs, tagIDs, taskIDs []string
	var invs []invitationRef
	// Keys are never reused across an Advance: the memory store's token
	// window is the clock's ten minutes, DynamoDB Local's real time.
	nonce := fmt.Sprintf("k%d-%d-", time.Now().UnixNano(), checkNonce.Add(1))
	epoch := 0

	keep := func(pool *[]string, v string) {
		if !slices.Contains(*pool, v) {
			*pool = append(*pool, v)
		}
	}
	id := func(t *rapid.T, label string, pool []string) string {
		return difftest.Pick(t, label, pool, difftest.Text(taskmgmt.MaxIDLen))
	}
	user := func(t *rapid.T) string { return id(t, "user", users) }
	team := func(t *rapid.T) string { return id(t, "team", teamIDs) }
	tag := func(t *rapid.T) string { return id(t, "tag", tagIDs) }
	task := func(t *rapid.T) string { return id(t, "task", taskIDs) }
	opt := func(t *rapid.T, label string) bool { return rapid.IntRange(0, 1).Draw(t, label) == 1 }
	name := func(t *rapid.T) string { return difftest.Text(taskmgmt.MaxNameLen).Draw(t, "name") }
	// tags draws a task's or a filter's tags: none, a few (repeats
	// included), or too many.
	tags := func(t *rapid.T) []string {
		switch n := rapid.IntRange(0, 19).Draw(t, "tags"); {
		case n < 6:
			return nil
		case n == 19:
			out := make([]string, taskmgmt.MaxTagsPerTask+1)
			for i := range out {
				out[i] = fmt.Sprint("t", i)
			}
			return out
		default:
			out := make([]string, 1+n%3)
			for i := range out {
				out[i] = tag(t)
			}
			return out
		}
	}
	// date draws a date near the clock's (which the overdue views and
	// the daily counters compare with), or an invalid one.
	date := func(t *rapid.T, label string) taskmgmt.Date {
		if rapid.IntRange(0, 99).Draw(t, label+" valid?") < 92 {
			d := rapid.IntRange(-4, 6).Draw(t, label)
			return addDays(t, taskmgmt.DateOf(modelStart.In(jst)), d)
		}
		return rapid.SampledFrom([]taskmgmt.Date{"", "2031-02-30", "2031/03/10", "2031-03-10T00:00:00Z", "10-03-2031"}).Draw(t, label)
	}
	// dates draws a task's dates: mostly in order.
	dates := func(t *rapid.T) (taskmgmt.Date, taskmgmt.Date) {
		start := date(t, "start")
		if start.Valid() && rapid.IntRange(0, 9).Draw(t, "ordered?") < 8 {
			return start, addDays(t, start, rapid.IntRange(0, 3).Draw(t, "days"))
		}
		return start, date(t, "end")
	}
	status := func(t *rapid.T) taskmgmt.Status {
		return difftest.Pick(t, "status", taskmgmt.Statuses, rapid.SampledFrom([]taskmgmt.Status{"", "blocked", "TODO"}))
	}
	role := func(t *rapid.T) taskmgmt.Role {
		return difftest.Pick(t, "role", []taskmgmt.Role{taskmgmt.RoleAdmin, taskmgmt.RoleMember}, rapid.SampledFrom([]taskmgmt.Role{"", "owner"}))
	}
	color := func(t *rapid.T) taskmgmt.Color {
		c := rapid.SampledFrom([]string{"#ffffff", "#000000", "", strings.Repeat("f", taskmgmt.MaxColorLen+1), "a\nb"})
		return taskmgmt.Color{Color: c.Draw(t, "color"), BackgroundColor: c.Draw(t, "background")}
	}
	// keyed draws the context of a transactional write: sometimes under
	// an idempotency key, from a small set so that keys repeat.
	keyed := func(t *rapid.T) context.Context {
		ctx := r.Ctx(t)
		if n := rapid.IntRange(0, 9).Draw(t, "key"); n >= 8 {
			return ddbkit.WithIdempotencyKey(ctx, fmt.Sprint(nonce, epoch, "-", n-8))
		}
		return ctx
	}

	// Each check starts from a small team, so that its operations reach
	// tasks, tags, counters and invitations: u1 (admin) and u2 (member)
	// in one team, with a tag and two tasks, one of them tagged.
	setup := func() {
		for _, u := range users[:3] {
			difftest.Call[taskmgmt.User](r, "CreateUser", context.Background(), taskmgmt.NewUser{ID: u, Email: "a@example.com", Name: "user " + u})
		}
		tm, err := difftest.Call[taskmgmt.Team](r, "CreateTeam", context.Background(), "u1", taskmgmt.NewTeam{Name: "team"})
		if err != nil {
			return
		}
		keep(&teamIDs, tm.ID)
		difftest.Call[taskmgmt.Member](r, "AddMember", context.Background(), tm.ID, "u1", "u2", taskmgmt.RoleMember)
		tg, err := difftest.Call[taskmgmt.Tag](r, "CreateTag", context.Background(), tm.ID, taskmgmt.NewTag{Name: "tag", Color: taskmgmt.Color{Color: "#fff", BackgroundColor: "#000"}})
		if err != nil {
			return
		}
		keep(&tagIDs, tg.ID)
		today := taskmgmt.DateOf(modelStart.In(jst))
		for i, in := range []taskmgmt.NewTask{
			{Title: "first", Start: mustDate(today.AddDays(-2)), End: mustDate(today.AddDays(-1)), TagIDs: []string{tg.ID}},
			{Title: "second", Status: taskmgmt.StatusDoing, Start: today, End: mustDate(today.AddDays(2))},
		} {
			if tk, err := difftest.Call[taskmgmt.Task](r, "CreateTask", context.Background(), tm.ID, in); err == nil {
				keep(&taskIDs, tk.ID)
			} else {
				panic(fmt.Sprint("setup task ", i, ": ", err))
			}
		}
	}
	setup()

	return map[string]func(*rapid.T){
		// The invariant: what the memory store exports, a fresh memory
		// store imports and exports unchanged.
		"": func(t *rapid.T) {
			mem := r.Pair.Mem.(*taskmgmt.MemoryStore)
			out := mem.Export()
			fresh := taskmgmt.NewMemoryStore(func(o *taskmgmt.Options) {
				o.TableName, o.InvitationTableName = r.Pair.Tables[0], r.Pair.Tables[1]
			})
			if err := fresh.Import(out); err != nil {
				t.Fatalf("Import of Export: %v", err)
			}
			for name, items := range fresh.Export() {
				if got, want := itemStrings(items), itemStrings(out[name]); !slices.Equal(got, want) {
					t.Fatalf("table %s after Import of Export:\n got %v\nwant %v", name, got, want)
				}
			}
		},
		"Advance": func(t *rapid.T) {
			d := rapid.SampledFrom([]time.Duration{time.Minute, time.Hour, 7 * time.Hour, 24 * time.Hour, 25 * time.Hour}).Draw(t, "advance")
			r.Advance(d)
			epoch++
		},
		"CreateUser": func(t *rapid.T) {
			in := taskmgmt.NewUser{ID: user(t), Email: difftest.Pick(t, "email", emails, difftest.Text(taskmgmt.MaxEmailLen)), Name: name(t)}
			if opt(t, "image?") {
				in.Image = difftest.Text(taskmgmt.MaxImageLen).Draw(t, "image")
			}
			if u, err := difftest.Call[taskmgmt.User](r, "CreateUser", r.Ctx(t), in); err == nil {
				keep(&users, u.ID)
			}
		},
		"GetUser": func(t *rapid.T) {
			difftest.Call[taskmgmt.User](r, "GetUser", r.Ctx(t), user(t))
		},
		"RenameUser": func(t *rapid.T) {
			difftest.Call[taskmgmt.User](r, "RenameUser", r.Ctx(t), user(t), name(t))
		},
		"CreateTeam": func(t *rapid.T) {
			ctx, creator := keyed(t), user(t)
			in := taskmgmt.NewTeam{Name: name(t)}
			if opt(t, "description?") {
				in.Description = difftest.Text(taskmgmt.MaxDescriptionLen).Draw(t, "description")
			}
			if tm, err := difftest.Call[taskmgmt.Team](r, "CreateTeam", ctx, creator, in); err == nil {
				keep(&teamIDs, tm.ID)
			}
		},
		"GetTeam": func(t *rapid.T) {
			difftest.Call[taskmgmt.Team](r, "GetTeam", r.Ctx(t), team(t))
		},
		"UpdateTeam": func(t *rapid.T) {
			ctx, tm, actor := r.Ctx(t), team(t), user(t)
			var p taskmgmt.TeamPatch
			if opt(t, "name?") {
				p.Name = difftest.P(name(t))
			}
			if opt(t, "description?") {
				p.Description = difftest.P(difftest.Text(taskmgmt.MaxDescriptionLen).Draw(t, "description"))
			}
			difftest.Call[taskmgmt.Team](r, "UpdateTeam", ctx, tm, actor, p)
		},
		"DeleteTeam": func(t *rapid.T) {
			difftest.Exec(r, "DeleteTeam", r.Ctx(t), team(t), user(t))
		},
		"GetMember": func(t *rapid.T) {
			difftest.Call[taskmgmt.Member](r, "GetMember", r.Ctx(t), team(t), user(t))
		},
		"ListMembers": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[taskmgmt.Member]](r, "ListMembers", r.Ctx(t), team(t), r.PageOptions(t))
		},
		"ListUserTeams": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[taskmgmt.Membership]](r, "ListUserTeams", r.Ctx(t), user(t), r.PageOptions(t))
		},
		"AddMember": func(t *rapid.T) {
			difftest.Call[taskmgmt.Member](r, "AddMember", keyed(t), team(t), user(t), user(t), role(t))
		},
		"SetRole": func(t *rapid.T) {
			difftest.Call[taskmgmt.Member](r, "SetRole", keyed(t), team(t), user(t), user(t), role(t))
		},
		"RemoveMember": func(t *rapid.T) {
			difftest.Exec(r, "RemoveMember", keyed(t), team(t), user(t), user(t))
		},
		"CreateTag": func(t *rapid.T) {
			ctx, tm := keyed(t), team(t)
			in := taskmgmt.NewTag{Name: name(t), Color: color(t)}
			if tg, err := difftest.Call[taskmgmt.Tag](r, "CreateTag", ctx, tm, in); err == nil {
				keep(&tagIDs, tg.ID)
			}
		},
		"ListTags": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[taskmgmt.Tag]](r, "ListTags", r.Ctx(t), team(t), r.PageOptions(t))
		},
		"DeleteTag": func(t *rapid.T) {
			difftest.Exec(r, "DeleteTag", r.Ctx(t), team(t), user(t), tag(t))
		},
		"CreateTask": func(t *rapid.T) {
			ctx, tm := keyed(t), team(t)
			start, end := dates(t)
			in := taskmgmt.NewTask{Title: difftest.Text(taskmgmt.MaxTitleLen).Draw(t, "title"), Start: start, End: end, TagIDs: tags(t)}
			if opt(t, "status?") {
				in.Status = status(t)
			}
			if opt(t, "description?") {
				in.Description = difftest.Text(taskmgmt.MaxDescriptionLen).Draw(t, "description")
			}
			if tk, err := difftest.Call[taskmgmt.Task](r, "CreateTask", ctx, tm, in); err == nil {
				keep(&taskIDs, tk.ID)
			}
		},
		"GetTask": func(t *rapid.T) {
			difftest.Call[taskmgmt.Task](r, "GetTask", r.Ctx(t), team(t), task(t))
		},
		"UpdateTask": func(t *rapid.T) {
			ctx, tm, tk := keyed(t), team(t), task(t)
			var p taskmgmt.TaskPatch
			if opt(t, "title?") {
				p.Title = difftest.P(difftest.Text(taskmgmt.MaxTitleLen).Draw(t, "title"))
			}
			if opt(t, "description?") {
				p.Description = difftest.P(difftest.Text(taskmgmt.MaxDescriptionLen).Draw(t, "description"))
			}
			if opt(t, "status?") {
				p.Status = difftest.P(status(t))
			}
			if opt(t, "start?") {
				p.Start = difftest.P(date(t, "start"))
			}
			if opt(t, "end?") {
				p.End = difftest.P(date(t, "end"))
			}
			if opt(t, "tags?") {
				p.TagIDs = difftest.P(tags(t))
			}
			difftest.Call[taskmgmt.Task](r, "UpdateTask", ctx, tm, tk, p)
		},
		"DeleteTask": func(t *rapid.T) {
			difftest.Exec(r, "DeleteTask", keyed(t), team(t), task(t))
		},
		"ListBoard": func(t *rapid.T) {
			ctx, tm := r.Ctx(t), team(t)
			q := taskmgmt.BoardQuery{
				View: difftest.Pick(t, "view", []taskmgmt.View{taskmgmt.ViewInitial, taskmgmt.ViewTodo, taskmgmt.ViewAll, taskmgmt.ViewStartOverdue, taskmgmt.ViewEndOverdue},
					rapid.SampledFrom([]taskmgmt.View{"", "done"})),
				TagIDs:      tags(t),
				Match:       rapid.SampledFrom([]taskmgmt.TagMatch{"", taskmgmt.MatchAny, taskmgmt.MatchAll, "some"}).Draw(t, "match"),
				PageOptions: r.PageOptions(t),
			}
			difftest.Call[ddbkit.Page[taskmgmt.Task]](r, "ListBoard", ctx, tm, q)
		},
		"GetCounts": func(t *rapid.T) {
			difftest.Call[taskmgmt.Counts](r, "GetCounts", r.Ctx(t), team(t))
		},
		"ListDailyCounts": func(t *rapid.T) {
			ctx, tm := r.Ctx(t), team(t)
			var q taskmgmt.DailyQuery
			if opt(t, "from?") {
				q.From = date(t, "from")
			}
			if opt(t, "to?") {
				q.To = date(t, "to")
			}
			q.Descending = opt(t, "descending")
			q.PageOptions = r.PageOptions(t)
			difftest.Call[ddbkit.Page[taskmgmt.DailyCount]](r, "ListDailyCounts", ctx, tm, q)
		},
		"RecalculateCounters": func(t *rapid.T) {
			difftest.Call[taskmgmt.CounterReport](r, "RecalculateCounters", r.Ctx(t), team(t))
		},
		"Invite": func(t *rapid.T) {
			ctx, tm, inviter := keyed(t), team(t), user(t)
			in := taskmgmt.NewInvitation{Email: difftest.Pick(t, "email", emails, difftest.Text(taskmgmt.MaxEmailLen))}
			if opt(t, "role?") {
				in.Role = role(t)
			}
			if inv, err := difftest.Call[taskmgmt.Invitation](r, "Invite", ctx, tm, inviter, in); err == nil {
				invs = append(invs, invitationRef{inv.TeamID, inv.ID, inv.Token})
			}
		},
		"GetInvitation": func(t *rapid.T) {
			tm, iid := team(t), difftest.Text(taskmgmt.MaxIDLen).Draw(t, "invitation")
			if len(invs) > 0 && opt(t, "known?") {
				ref := rapid.SampledFrom(invs).Draw(t, "invitation ref")
				tm, iid = ref.teamID, ref.id
			}
			difftest.Call[taskmgmt.Invitation](r, "GetInvitation", r.Ctx(t), tm, iid)
		},
		"ListInvitations": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[taskmgmt.Invitation]](r, "ListInvitations", r.Ctx(t), team(t), r.PageOptions(t))
		},
		"AcceptInvitation": func(t *rapid.T) {
			ctx, u := keyed(t), user(t)
			a := taskmgmt.Acceptance{TeamID: team(t), InvitationID: difftest.Text(taskmgmt.MaxIDLen).Draw(t, "invitation"),
				Token: rapid.SampledFrom([]string{"token-1", "x", ""}).Draw(t, "token")}
			if len(invs) > 0 && rapid.IntRange(0, 9).Draw(t, "known?") < 8 {
				ref := rapid.SampledFrom(invs).Draw(t, "invitation ref")
				a = taskmgmt.Acceptance{TeamID: ref.teamID, InvitationID: ref.id, Token: ref.token}
				if rapid.IntRange(0, 9).Draw(t, "wrong token?") == 0 {
					a.Token += "x"
				}
			}
			difftest.Call[taskmgmt.Member](r, "AcceptInvitation", ctx, u, a)
		},
		"RevokeInvitation": func(t *rapid.T) {
			ctx, tm, admin := keyed(t), team(t), user(t)
			iid := difftest.Text(taskmgmt.MaxIDLen).Draw(t, "invitation")
			if len(invs) > 0 && opt(t, "known?") {
				ref := rapid.SampledFrom(invs).Draw(t, "invitation ref")
				tm, iid = ref.teamID, ref.id
			}
			difftest.Exec(r, "RevokeInvitation", ctx, tm, admin, iid)
		},
	}
}

// The divergences the model runs found, each as the shrunk sequence
// difftest printed (trimmed to what the divergence needs).

// A cancelled context: the DynamoDB store reported the SDK call it
// interrupted ("operation error DynamoDB: GetItem, context canceled"), the
// memory store the context's error.
func TestModelRegressionCanceledText(t *testing.T) {
	p := newModelPair(t)
	difftest.Same(t, p, func(s taskmgmt.Store) (taskmgmt.Task, error) { return s.GetTask(difftest.Canceled(), "91", "work") })
}

// A cancelled context and a cursor that is none: the memory store
// reported the context, the DynamoDB store the cursor, which it decodes
// before any call (invalid input first).
func TestModelRegressionCursorBeforeContext(t *testing.T) {
	p := newModelPair(t)
	difftest.Same(t, p, func(s taskmgmt.Store) (ddbkit.Page[taskmgmt.Task], error) {
		return s.ListBoard(difftest.Canceled(), "a.b_c", taskmgmt.BoardQuery{View: "initial", TagIDs: []string{"ｶﾀｶﾅ", "work", "a"}, Match: "any", PageOptions: ddbkit.PageOptions{Limit: 2, Cursor: "eyJrIjoiIn0"}})
	})
	difftest.Same(t, p, func(s taskmgmt.Store) (ddbkit.Page[taskmgmt.Invitation], error) {
		return s.ListInvitations(difftest.Canceled(), "a", ddbkit.PageOptions{Cursor: "x"})
	})
}

// An idempotency key reused for other writes: the DynamoDB store's error
// carried DynamoDB's request ID.
func TestModelRegressionKeyReused(t *testing.T) {
	ctx := t.Context()
	key := fmt.Sprint("reused-", time.Now().UnixNano()) // DynamoDB Local remembers tokens across tables
	p := newModelPair(t)
	difftest.Same(t, p, func(s taskmgmt.Store) (taskmgmt.User, error) {
		return s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "a@example.com", Name: "a"})
	})
	difftest.Same(t, p, func(s taskmgmt.Store) (taskmgmt.Team, error) {
		return s.CreateTeam(ddbkit.WithIdempotencyKey(ctx, key), "u1", taskmgmt.NewTeam{Name: "a"})
	})
	difftest.Same(t, p, func(s taskmgmt.Store) (taskmgmt.Team, error) {
		return s.CreateTeam(ddbkit.WithIdempotencyKey(ctx, key), "u1", taskmgmt.NewTeam{Name: "b"})
	})
	difftest.SameRaw(t, p)
}

// The same CreateUser twice: the DynamoDB store's PutNew took the second
// for its own earlier success, the memory store refused it.
func TestModelRegressionCreateUserTwice(t *testing.T) {
	ctx := t.Context()
	p := newFaultPair(t)
	difftest.Same(t, p, func(s taskmgmt.Store) (taskmgmt.User, error) {
		return s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "b@example.com", Name: "b"})
	})
	difftest.Same(t, p, func(s taskmgmt.Store) (taskmgmt.User, error) {
		return s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "b@example.com", Name: "b"})
	})
	difftest.SameRaw(t, p)
}

// A 500 on a single read: the DynamoDB store's reads outside transactions
// were not retried.
func TestModelRegressionReadRetried(t *testing.T) {
	ctx := t.Context()
	p := newFaultPair(t)
	p.Faults.Next("InternalError")
	difftest.Same(t, p, func(s taskmgmt.Store) (taskmgmt.Member, error) {
		return s.AcceptInvitation(ctx, "u1", taskmgmt.Acceptance{TeamID: "t", InvitationID: "x-1", Token: "x"})
	})
	p.Faults.Next("Throttle")
	difftest.Same(t, p, func(s taskmgmt.Store) (taskmgmt.User, error) { return s.RenameUser(ctx, "u2", "90f") })
	p.Faults.Next("LoseResponse")
	difftest.Same(t, p, func(s taskmgmt.Store) (ddbkit.Page[taskmgmt.Task], error) {
		return s.ListBoard(ctx, "t", taskmgmt.BoardQuery{View: taskmgmt.ViewAll})
	})
}

func itemStrings(items []map[string]types.AttributeValue) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = difftest.ItemString(it)
	}
	return out
}
