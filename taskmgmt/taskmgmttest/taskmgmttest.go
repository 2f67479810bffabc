// Package taskmgmttest is the conformance suite for taskmgmt.Store
// implementations. The DynamoDB store and the memory store both run it,
// which is what keeps the memory store an honest fake: same results,
// errors, order and page boundaries.
package taskmgmttest

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// NewStore returns a fresh, empty store configured with opts. Each subtest
// calls it once.
type NewStore func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store

// Start is the time of the suite's clock: 2025-11-10 09:00 in Tokyo.
var Start = time.Date(2025, 11, 10, 0, 0, 0, 0, time.UTC)

// Tokyo is the suite's time zone, in which Start is already 09:00.
var Tokyo = time.FixedZone("JST", 9*60*60)

// Run runs every conformance test against stores made by newStore.
func Run(t *testing.T, newStore NewStore) {
	tests := []struct {
		name string
		fn   func(*testing.T, NewStore)
	}{
		{"Users", testUsers},
		{"DefaultIDsAreUUIDv7", testDefaultIDs},
		{"CreateTeamMakesCreatorAdmin", testCreateTeam},
		{"Members", testMembers},
		{"NeverWithoutAdmin", testNeverWithoutAdmin},
		{"Roles", testRoles},
		{"Tags", testTags},
		{"TaskLifecycleAndCounters", testTaskLifecycle},
		{"TaskTags", testTaskTags},
		{"BoardViews", testBoardViews},
		{"BoardTagFilters", testBoardTagFilters},
		{"BoardPagesAndCursors", testBoardCursors},
		{"BoardQueries", testBoardQueries},
		{"BoardQueryCursors", testBoardQueryCursors},
		{"BoardQueryValidation", testBoardQueryValidation},
		{"DailyCountersExpire", testDailyExpire},
		{"RecalculateCounters", testRecalculate},
		{"RenamesFanOut", testRenames},
		{"DeleteTag", testDeleteTag},
		{"DeleteTeam", testDeleteTeam},
		{"BadInputWritesNothing", testBadInput},
		{"CancelledContextWritesNothing", testCancelled},
		{"IdempotencyKey", testIdempotencyKey},
		{"KeyedCreatesReplay", testKeyedCreates},
		{"KeyedRepeats", testKeyedRepeats},
		{"ConcurrentTasks", testConcurrent},
		{"IdempotencyKeysAreScoped", testScopedKeys},
		{"ShortCursorSecret", testShortCursorSecret},
		{"TimesRangeChecked", testTimesRangeChecked},
		{"ControlCharacters", testControlCharacters},
		{"LargestItems", testLargestItems},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, newStore) })
	}
}

// Clock is a clock that stays where the test sets it.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// fixed returns a store on a manual clock at Start, in Tokyo, with
// seeded UUIDv7 IDs, and the clock.
func fixed(t *testing.T, newStore NewStore, more ...func(*taskmgmt.Options)) (taskmgmt.Store, *Clock) {
	t.Helper()
	c := &Clock{now: Start}
	opts := append([]func(*taskmgmt.Options){func(o *taskmgmt.Options) {
		o.Clock = c.Now
		o.Location = Tokyo
		o.NewID = ddbkit.SeededUUIDv7s(1, c.Now)
	}}, more...)
	return newStore(t, opts...), c
}

func ptr[T any](v T) *T { return &v }

// addDays is d.AddDays(n) of a date the test knows is valid.
func addDays(t *testing.T, d taskmgmt.Date, n int) taskmgmt.Date {
	t.Helper()
	out, err := d.AddDays(n)
	if err != nil {
		t.Fatalf("%s.AddDays(%d): %v", d, n, err)
	}
	return out
}

func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("%s: unexpected error %v", what, err)
		}
		return
	}
	if !errors.Is(err, want) {
		t.Fatalf("%s: error = %v, want %v", what, err, want)
	}
	for _, s := range ddbkit.Sentinels() {
		if s != want && errors.Is(err, s) {
			t.Fatalf("%s: error %v also matches %v", what, err, s)
		}
	}
	if !strings.HasPrefix(err.Error(), "taskmgmt: ") {
		t.Fatalf("%s: error %q lacks the package prefix", what, err)
	}
}

func wantField(t *testing.T, what string, err error, field string) {
	t.Helper()
	wantErr(t, what, err, ddbkit.ErrInvalidArgument)
	var ve *ddbkit.ValidationError
	if !errors.As(err, &ve) || ve.Field != field {
		t.Fatalf("%s: error %v, want a ValidationError for field %q", what, err, field)
	}
}

func must[T any](t *testing.T, what string) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return v
	}
}

func equal(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

// team makes a user "u1" and a team of theirs.
func team(t *testing.T, s taskmgmt.Store) taskmgmt.Team {
	t.Helper()
	ctx := t.Context()
	must[taskmgmt.User](t, "CreateUser")(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "monbayashi joji"}))
	return must[taskmgmt.Team](t, "CreateTeam")(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "タスク管理 APP 開発チーム", Description: "タスク管理 APP 開発チーム用のタスク管理"}))
}

func all[T any](t *testing.T, fetch func(o ddbkit.PageOptions) (ddbkit.Page[T], error)) []T {
	t.Helper()
	var out []T
	for v, err := range ddbkit.All(func(cursor string) (ddbkit.Page[T], error) {
		return fetch(ddbkit.PageOptions{Limit: 2, Cursor: cursor})
	}) {
		if err != nil {
			t.Fatalf("listing: %v", err)
		}
		out = append(out, v)
	}
	return out
}

func board(t *testing.T, s taskmgmt.Store, teamID string, q taskmgmt.BoardQuery) []string {
	t.Helper()
	var ids []string
	for _, task := range all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Task], error) {
		q.PageOptions = o
		return s.ListBoard(t.Context(), teamID, q)
	}) {
		ids = append(ids, task.Title)
	}
	return ids
}

func counts(t *testing.T, s taskmgmt.Store, teamID string) taskmgmt.Counts {
	t.Helper()
	return must[taskmgmt.Counts](t, "GetCounts")(s.GetCounts(t.Context(), teamID))
}

func daily(t *testing.T, s taskmgmt.Store, teamID string) []taskmgmt.DailyCount {
	t.Helper()
	return all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.DailyCount], error) {
		return s.ListDailyCounts(t.Context(), teamID, taskmgmt.DailyQuery{PageOptions: o})
	})
}

func testUsers(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	u := must[taskmgmt.User](t, "CreateUser")(s.CreateUser(ctx, taskmgmt.NewUser{ID: "auth0|42", Email: "a@example.com", Name: "Alice", Image: "https://example.com/a.png"}))
	// 2025-11-10 00:00 UTC is 09:00 in Tokyo: the same day.
	equal(t, "CreateUser", u, taskmgmt.User{ID: "auth0|42", Email: "a@example.com", Name: "Alice", Image: "https://example.com/a.png", CreatedAt: "2025-11-10"})
	equal(t, "GetUser", must[taskmgmt.User](t, "GetUser")(s.GetUser(ctx, "auth0|42")), u)
	_, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: "auth0|42", Email: "b@example.com", Name: "Bob"})
	wantErr(t, "CreateUser again", err, ddbkit.ErrAlreadyExists)
	// The same user again, field for field, the same day: another
	// caller's identical create is no proof of this call's own write, so
	// it is taken on both stores; only a token proves a write one's own
	// (see IdempotencyKey and the DynamoDB store's lost-response test).
	_, err = s.CreateUser(ctx, taskmgmt.NewUser{ID: "auth0|42", Email: "a@example.com", Name: "Alice", Image: "https://example.com/a.png"})
	wantErr(t, "CreateUser identical, by another caller", err, ddbkit.ErrAlreadyExists)
	_, err = s.CreateUser(ctx, taskmgmt.NewUser{ID: "auth0|42", Email: "a@example.com", Name: "Alice"})
	wantErr(t, "CreateUser again without the image", err, ddbkit.ErrAlreadyExists)
	// With an idempotency key, the caller's own repeat returns the first
	// result.
	kctx := ddbkit.WithIdempotencyKey(ctx, "create-bob")
	bob := taskmgmt.NewUser{ID: "auth0|43", Email: "b@example.com", Name: "Bob"}
	b1 := must[taskmgmt.User](t, "CreateUser with a key")(s.CreateUser(kctx, bob))
	b2 := must[taskmgmt.User](t, "CreateUser repeated with the key")(s.CreateUser(kctx, bob))
	equal(t, "CreateUser repeated with the key", b2, b1)
	_, err = s.CreateUser(ctx, bob)
	wantErr(t, "CreateUser identical without the key", err, ddbkit.ErrAlreadyExists)
	_, err = s.GetUser(ctx, "nobody")
	wantErr(t, "GetUser unknown", err, ddbkit.ErrNotFound)
	_, err = s.GetUser(ctx, "a#b")
	wantField(t, "GetUser a#b", err, "UserID")
}

func testDefaultIDs(t *testing.T, newStore NewStore) {
	s := newStore(t)
	ctx := t.Context()
	must[taskmgmt.User](t, "CreateUser")(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "e@example.com", Name: "n"}))
	tm := must[taskmgmt.Team](t, "CreateTeam")(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "t"}))
	if len(tm.ID) != 36 || tm.ID[14] != '7' {
		t.Fatalf("team ID %q is not a UUIDv7", tm.ID)
	}
}

func testCreateTeam(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	tm := team(t, s)
	equal(t, "GetTeam", must[taskmgmt.Team](t, "GetTeam")(s.GetTeam(ctx, tm.ID)), tm)
	members := all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Member], error) { return s.ListMembers(ctx, tm.ID, o) })
	equal(t, "ListMembers", members, []taskmgmt.Member{{TeamID: tm.ID, UserID: "u1", UserName: "monbayashi joji", Role: taskmgmt.RoleAdmin, JoinedAt: "2025-11-10"}})
	teams := all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Membership], error) {
		return s.ListUserTeams(ctx, "u1", o)
	})
	equal(t, "ListUserTeams", teams, []taskmgmt.Membership{{UserID: "u1", TeamID: tm.ID, TeamName: tm.Name, Role: taskmgmt.RoleAdmin, JoinedAt: "2025-11-10"}})
	_, err := s.CreateTeam(ctx, "nobody", taskmgmt.NewTeam{Name: "x"})
	wantErr(t, "CreateTeam by unknown user", err, ddbkit.ErrNotFound)
	_, err = s.GetTeam(ctx, "nope")
	wantErr(t, "GetTeam unknown", err, ddbkit.ErrNotFound)
	got := must[ddbkit.Page[taskmgmt.Membership]](t, "ListUserTeams nobody")(s.ListUserTeams(ctx, "nobody", ddbkit.PageOptions{}))
	if len(got.Items) != 0 || got.Next != "" {
		t.Fatalf("ListUserTeams of nobody = %+v", got)
	}
}

func testMembers(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	tm := team(t, s)
	for _, id := range []string{"u3", "u2"} {
		must[taskmgmt.User](t, "CreateUser")(s.CreateUser(ctx, taskmgmt.NewUser{ID: id, Email: id + "@example.com", Name: "name " + id}))
	}
	m := must[taskmgmt.Member](t, "AddMember")(s.AddMember(ctx, tm.ID, "u1", "u3", taskmgmt.RoleMember))
	equal(t, "AddMember", m, taskmgmt.Member{TeamID: tm.ID, UserID: "u3", UserName: "name u3", Role: taskmgmt.RoleMember, JoinedAt: "2025-11-10"})
	equal(t, "GetMember", must[taskmgmt.Member](t, "GetMember")(s.GetMember(ctx, tm.ID, "u3")), m)
	equal(t, "GetMember of the creator", must[taskmgmt.Member](t, "GetMember u1")(s.GetMember(ctx, tm.ID, "u1")),
		taskmgmt.Member{TeamID: tm.ID, UserID: "u1", UserName: "monbayashi joji", Role: taskmgmt.RoleAdmin, JoinedAt: "2025-11-10"})
	_, err := s.GetMember(ctx, tm.ID, "u2")
	wantErr(t, "GetMember of a user who is no member", err, ddbkit.ErrNotFound)
	_, err = s.GetMember(ctx, tm.ID, "ghost")
	wantErr(t, "GetMember of no user", err, ddbkit.ErrNotFound)
	_, err = s.GetMember(ctx, "noteam", "u1")
	wantErr(t, "GetMember of no team", err, ddbkit.ErrNotFound)
	_, err = s.GetMember(ctx, "t#1", "u1")
	wantField(t, "GetMember t#1", err, "TeamID")
	_, err = s.GetMember(ctx, tm.ID, "")
	wantField(t, "GetMember without a user", err, "UserID")
	must[taskmgmt.Member](t, "AddMember u2")(s.AddMember(ctx, tm.ID, "u1", "u2", taskmgmt.RoleMember))
	_, err = s.AddMember(ctx, tm.ID, "u1", "u2", taskmgmt.RoleAdmin)
	wantErr(t, "AddMember twice", err, ddbkit.ErrAlreadyExists)
	_, err = s.AddMember(ctx, tm.ID, "u1", "ghost", taskmgmt.RoleMember)
	wantErr(t, "AddMember unknown user", err, ddbkit.ErrNotFound)
	_, err = s.AddMember(ctx, "noteam", "u1", "u2", taskmgmt.RoleMember)
	wantErr(t, "AddMember unknown team", err, ddbkit.ErrNotFound)

	var ids []string
	for _, m := range all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Member], error) { return s.ListMembers(ctx, tm.ID, o) }) {
		ids = append(ids, m.UserID+":"+string(m.Role))
	}
	equal(t, "members by user ID", ids, []string{"u1:admin", "u2:member", "u3:member"})

	m = must[taskmgmt.Member](t, "SetRole")(s.SetRole(ctx, tm.ID, "u1", "u3", taskmgmt.RoleAdmin))
	equal(t, "SetRole role", m.Role, taskmgmt.RoleAdmin)
	equal(t, "GetMember after SetRole", must[taskmgmt.Member](t, "GetMember")(s.GetMember(ctx, tm.ID, "u3")), m)
	ms := all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Membership], error) {
		return s.ListUserTeams(ctx, "u3", o)
	})
	equal(t, "user_team follows the role", ms[0].Role, taskmgmt.RoleAdmin)

	wantErr(t, "RemoveMember u2", s.RemoveMember(ctx, tm.ID, "u1", "u2"), nil)
	wantErr(t, "RemoveMember u2 again", s.RemoveMember(ctx, tm.ID, "u1", "u2"), ddbkit.ErrNotFound)
	_, err = s.GetMember(ctx, tm.ID, "u2")
	wantErr(t, "GetMember after RemoveMember", err, ddbkit.ErrNotFound)
	_, err = s.SetRole(ctx, tm.ID, "u1", "u2", taskmgmt.RoleAdmin)
	wantErr(t, "SetRole non-member", err, ddbkit.ErrNotFound)
	if got := all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Membership], error) {
		return s.ListUserTeams(ctx, "u2", o)
	}); len(got) != 0 {
		t.Fatalf("u2's teams after removal: %+v", got)
	}
}

func testNeverWithoutAdmin(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	tm := team(t, s)
	_, err := s.SetRole(ctx, tm.ID, "u1", "u1", taskmgmt.RoleMember)
	wantErr(t, "demote the only admin", err, ddbkit.ErrConflict)
	wantErr(t, "remove the only admin", s.RemoveMember(ctx, tm.ID, "u1", "u1"), ddbkit.ErrConflict)
	must[taskmgmt.User](t, "CreateUser")(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u2", Email: "e@example.com", Name: "n"}))
	must[taskmgmt.Member](t, "AddMember")(s.AddMember(ctx, tm.ID, "u1", "u2", taskmgmt.RoleAdmin))
	must[taskmgmt.Member](t, "demote u1")(s.SetRole(ctx, tm.ID, "u1", "u1", taskmgmt.RoleMember))
	wantErr(t, "remove the last admin u2", s.RemoveMember(ctx, tm.ID, "u2", "u2"), ddbkit.ErrConflict)
	wantErr(t, "remove member u1", s.RemoveMember(ctx, tm.ID, "u1", "u1"), nil)
	m := must[taskmgmt.Member](t, "SetRole same")(s.SetRole(ctx, tm.ID, "u2", "u2", taskmgmt.RoleAdmin))
	equal(t, "still admin", m.Role, taskmgmt.RoleAdmin)
}

var red = taskmgmt.Color{Color: "#ffffff", BackgroundColor: "#ff0000"}

func testTags(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	tm := team(t, s)
	b := must[taskmgmt.Tag](t, "CreateTag")(s.CreateTag(ctx, tm.ID, taskmgmt.NewTag{Name: "backend", Color: red}))
	f := must[taskmgmt.Tag](t, "CreateTag")(s.CreateTag(ctx, tm.ID, taskmgmt.NewTag{Name: "frontend", Color: red}))
	equal(t, "CreateTag", b, taskmgmt.Tag{ID: b.ID, TeamID: tm.ID, Name: "backend", Color: red})
	tags := all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Tag], error) { return s.ListTags(ctx, tm.ID, o) })
	equal(t, "ListTags in ID order", tags, []taskmgmt.Tag{b, f})
	_, err := s.CreateTag(ctx, "noteam", taskmgmt.NewTag{Name: "x", Color: red})
	wantErr(t, "CreateTag unknown team", err, ddbkit.ErrNotFound)
	_, err = s.CreateTag(ctx, tm.ID, taskmgmt.NewTag{Name: "x"})
	wantField(t, "CreateTag without color", err, "Color.Color")
}

func newTask(title string, st taskmgmt.Status, start, end taskmgmt.Date, tags ...string) taskmgmt.NewTask {
	return taskmgmt.NewTask{Title: title, Status: st, Start: start, End: end, TagIDs: tags}
}

func testTaskLifecycle(t *testing.T, newStore NewStore) {
	s, clk := fixed(t, newStore)
	ctx := t.Context()
	tm := team(t, s)
	task := must[taskmgmt.Task](t, "CreateTask")(s.CreateTask(ctx, tm.ID, taskmgmt.NewTask{Title: "デプロイ 1", Description: "タスクの説明", Start: "2025-11-05", End: "2025-12-05"}))
	equal(t, "CreateTask", task, taskmgmt.Task{ID: task.ID, TeamID: tm.ID, Title: "デプロイ 1", Description: "タスクの説明", Status: taskmgmt.StatusTodo, Start: "2025-11-05", End: "2025-12-05"})
	equal(t, "GetTask", must[taskmgmt.Task](t, "GetTask")(s.GetTask(ctx, tm.ID, task.ID)), task)
	equal(t, "counts after create", counts(t, s, tm.ID), taskmgmt.Counts{Todo: 1})

	clk.Set(Start.Add(24 * time.Hour))
	moved := must[taskmgmt.Task](t, "UpdateTask status")(s.UpdateTask(ctx, tm.ID, task.ID, taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDoing)}))
	equal(t, "moved status", moved.Status, taskmgmt.StatusDoing)
	equal(t, "counts after move", counts(t, s, tm.ID), taskmgmt.Counts{Doing: 1})
	same := must[taskmgmt.Task](t, "UpdateTask no change")(s.UpdateTask(ctx, tm.ID, task.ID, taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDoing)}))
	equal(t, "no-op update", same, moved)
	must[taskmgmt.Task](t, "UpdateTask title")(s.UpdateTask(ctx, tm.ID, task.ID, taskmgmt.TaskPatch{Title: ptr("デプロイ 2")}))
	equal(t, "counts after title change", counts(t, s, tm.ID), taskmgmt.Counts{Doing: 1})

	_, err := s.UpdateTask(ctx, tm.ID, task.ID, taskmgmt.TaskPatch{End: ptr(taskmgmt.Date("2025-11-01"))})
	wantField(t, "end before start (read)", err, "End")

	var days []string
	for _, d := range daily(t, s, tm.ID) {
		days = append(days, string(d.Date)+fmtCounts(d.Counts))
	}
	equal(t, "daily counters", days, []string{"2025-11-10 todo=1 doing=0 done=0", "2025-11-11 todo=0 doing=1 done=0"})

	wantErr(t, "DeleteTask", s.DeleteTask(ctx, tm.ID, task.ID), nil)
	wantErr(t, "DeleteTask again", s.DeleteTask(ctx, tm.ID, task.ID), ddbkit.ErrNotFound)
	_, err = s.GetTask(ctx, tm.ID, task.ID)
	wantErr(t, "GetTask deleted", err, ddbkit.ErrNotFound)
	equal(t, "counts after delete", counts(t, s, tm.ID), taskmgmt.Counts{})
	_, err = s.UpdateTask(ctx, tm.ID, task.ID, taskmgmt.TaskPatch{Title: ptr("x")})
	wantErr(t, "UpdateTask deleted", err, ddbkit.ErrNotFound)
	_, err = s.CreateTask(ctx, "noteam", newTask("x", "", "2025-11-01", "2025-11-02"))
	wantErr(t, "CreateTask unknown team", err, ddbkit.ErrNotFound)
}

func fmtCounts(c taskmgmt.Counts) string {
	return " todo=" + itoa(c.Todo) + " doing=" + itoa(c.Doing) + " done=" + itoa(c.Done)
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func testTaskTags(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	tm := team(t, s)
	a := must[taskmgmt.Tag](t, "CreateTag")(s.CreateTag(ctx, tm.ID, taskmgmt.NewTag{Name: "a", Color: red}))
	b := must[taskmgmt.Tag](t, "CreateTag")(s.CreateTag(ctx, tm.ID, taskmgmt.NewTag{Name: "b", Color: red}))
	task := must[taskmgmt.Task](t, "CreateTask")(s.CreateTask(ctx, tm.ID, newTask("t", "", "2025-11-01", "2025-11-02", b.ID, a.ID)))
	equal(t, "tags sorted", task.TagIDs, []string{a.ID, b.ID})
	_, err := s.CreateTask(ctx, tm.ID, newTask("t", "", "2025-11-01", "2025-11-02", a.ID, "ghost"))
	wantField(t, "CreateTask unknown tag", err, "TagIDs[1]")
	_, err = s.UpdateTask(ctx, tm.ID, task.ID, taskmgmt.TaskPatch{TagIDs: &[]string{a.ID, "ghost"}})
	wantField(t, "UpdateTask unknown tag", err, "TagIDs[1]")
	got := must[taskmgmt.Task](t, "UpdateTask no tags")(s.UpdateTask(ctx, tm.ID, task.ID, taskmgmt.TaskPatch{TagIDs: &[]string{}}))
	if got.TagIDs != nil {
		t.Fatalf("TagIDs after removing all = %#v, want nil", got.TagIDs)
	}
	equal(t, "GetTask without tags", must[taskmgmt.Task](t, "GetTask")(s.GetTask(ctx, tm.ID, task.ID)), got)
	equal(t, "counts", counts(t, s, tm.ID), taskmgmt.Counts{Todo: 1})
}
