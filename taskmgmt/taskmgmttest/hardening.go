package taskmgmttest

import (
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// testScopedKeys: one idempotency key used by two tenants (two teams, two
// users) and on two tables (two stores) makes unrelated tokens, so every
// write succeeds and writes.
func testScopedKeys(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := ddbkit.WithIdempotencyKey(t.Context(), "the same key")
	u1 := must[taskmgmt.User](t, "CreateUser u1")(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "a@example.com", Name: "alice"}))
	must[taskmgmt.User](t, "CreateUser u2, same key")(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u2", Email: "b@example.com", Name: "bob"}))
	t1 := must[taskmgmt.Team](t, "CreateTeam by u1")(s.CreateTeam(ctx, u1.ID, taskmgmt.NewTeam{Name: "one"}))
	t2 := must[taskmgmt.Team](t, "CreateTeam by u2, same key")(s.CreateTeam(ctx, "u2", taskmgmt.NewTeam{Name: "two"}))
	if t1.ID == t2.ID {
		t.Fatalf("two teams under one key got one ID %q", t1.ID)
	}
	nt := newTask("t", taskmgmt.StatusTodo, "2025-11-01", "2025-11-02")
	a := must[taskmgmt.Task](t, "CreateTask in team one")(s.CreateTask(ctx, t1.ID, nt))
	b := must[taskmgmt.Task](t, "CreateTask in team two, same key")(s.CreateTask(ctx, t2.ID, nt))
	for _, tk := range []taskmgmt.Task{a, b} {
		must[taskmgmt.Task](t, "GetTask")(s.GetTask(t.Context(), tk.TeamID, tk.ID))
	}
	must[taskmgmt.Tag](t, "CreateTag in team one")(s.CreateTag(ctx, t1.ID, taskmgmt.NewTag{Name: "x", Color: taskmgmt.Color{Color: "a", BackgroundColor: "b"}}))
	must[taskmgmt.Tag](t, "CreateTag in team two, same key")(s.CreateTag(ctx, t2.ID, taskmgmt.NewTag{Name: "x", Color: taskmgmt.Color{Color: "a", BackgroundColor: "b"}}))

	// Another store, on other tables: the same key, the same user ID.
	other, _ := fixed(t, newStore)
	must[taskmgmt.User](t, "CreateUser u1 on another table, same key")(other.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "a@example.com", Name: "alice"}))
	must[taskmgmt.User](t, "GetUser on the other table")(other.GetUser(t.Context(), "u1"))
}

// testShortCursorSecret: a CursorSecret of 1 to 15 bytes fails every
// listing with ErrInvalidArgument naming CursorSecret.
func testShortCursorSecret(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore, func(o *taskmgmt.Options) { o.CursorSecret = []byte("short") })
	ctx := t.Context()
	tm := team(t, s)
	_, err := s.ListMembers(ctx, tm.ID, ddbkit.PageOptions{})
	wantField(t, "ListMembers", err, "CursorSecret")
	_, err = s.ListBoard(ctx, tm.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewAll})
	wantField(t, "ListBoard", err, "CursorSecret")
	_, err = s.ListDailyCounts(ctx, tm.ID, taskmgmt.DailyQuery{})
	wantField(t, "ListDailyCounts", err, "CursorSecret")
	_, err = s.ListTags(ctx, tm.ID, ddbkit.PageOptions{})
	wantField(t, "ListTags", err, "CursorSecret")
	_, err = s.ListUserTeams(ctx, "u1", ddbkit.PageOptions{})
	wantField(t, "ListUserTeams", err, "CursorSecret")

	long, _ := fixed(t, newStore, func(o *taskmgmt.Options) { o.CursorSecret = []byte("0123456789abcdef") })
	tm = team(t, long)
	must[ddbkit.Page[taskmgmt.Member]](t, "ListMembers with a 16-byte secret")(long.ListMembers(ctx, tm.ID, ddbkit.PageOptions{}))
}

// testTimesRangeChecked: every date a caller supplies is checked to lie in
// the years 0001 to 9999, and a refused write writes nothing.
func testTimesRangeChecked(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	tm := team(t, s)
	task := must[taskmgmt.Task](t, "CreateTask")(s.CreateTask(ctx, tm.ID, newTask("t", taskmgmt.StatusTodo, "2025-11-01", "2025-11-02")))
	before := counts(t, s, tm.ID)
	for _, tc := range []struct {
		name, field string
		in          taskmgmt.NewTask
	}{
		{"Start in year 10000", "Start", newTask("x", taskmgmt.StatusTodo, "10000-01-01", "10000-01-02")},
		{"Start in year 0", "Start", newTask("x", taskmgmt.StatusTodo, "0000-12-31", "2025-01-01")},
		{"End in year 10000", "End", newTask("x", taskmgmt.StatusTodo, "2025-01-01", "10000-01-01")},
	} {
		_, err := s.CreateTask(ctx, tm.ID, tc.in)
		wantField(t, "CreateTask "+tc.name, err, tc.field)
	}
	y10k, y0 := taskmgmt.Date("10000-01-01"), taskmgmt.Date("0000-01-01")
	_, err := s.UpdateTask(ctx, tm.ID, task.ID, taskmgmt.TaskPatch{End: &y10k})
	wantField(t, "UpdateTask End in year 10000", err, "End")
	_, err = s.UpdateTask(ctx, tm.ID, task.ID, taskmgmt.TaskPatch{Start: &y0})
	wantField(t, "UpdateTask Start in year 0", err, "Start")
	equal(t, "the task after refused writes", must[taskmgmt.Task](t, "GetTask")(s.GetTask(ctx, tm.ID, task.ID)), task)
	equal(t, "the counters after refused writes", counts(t, s, tm.ID), before)
	equal(t, "the board after refused writes", board(t, s, tm.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewAll}), []string{task.Title})
}

// testControlCharacters: names that reach mails and pages refuse control
// characters, and an image must be an http(s) URL; nothing is written.
func testControlCharacters(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	tm := team(t, s)
	_, err := s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "team\r\nBcc: x@example.com"})
	wantField(t, "CreateTeam with a line break", err, "Name")
	_, err = s.UpdateTeam(ctx, tm.ID, "u1", taskmgmt.TeamPatch{Name: ptr("team\x00")})
	wantField(t, "UpdateTeam with NUL", err, "Name")
	_, err = s.CreateUser(ctx, taskmgmt.NewUser{ID: "u9", Email: "e@example.com", Name: "x\u0085y"})
	wantField(t, "CreateUser with NEL", err, "Name")
	_, err = s.CreateUser(ctx, taskmgmt.NewUser{ID: "u9", Email: "e@example.com", Name: "x", Image: "javascript:alert(1)"})
	wantField(t, "CreateUser with a javascript: image", err, "Image")
	_, err = s.GetUser(ctx, "u9")
	wantErr(t, "GetUser after refused creates", err, ddbkit.ErrNotFound)
	equal(t, "the team after a refused rename", must[taskmgmt.Team](t, "GetTeam")(s.GetTeam(ctx, tm.ID)), tm)
	teams := all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Membership], error) {
		return s.ListUserTeams(ctx, "u1", o)
	})
	equal(t, "u1's teams after a refused create", len(teams), 1)
}

// testLargestItems: the largest input every field allows makes items far
// below DynamoDB's 400 KB, so the size check (the net should a limit grow)
// passes them on both stores.
func testLargestItems(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	tm := team(t, s)
	wide := func(n int) string { // n four-byte characters
		b := make([]rune, n)
		for i := range b {
			b[i] = '𠮷'
		}
		return string(b)
	}
	in := taskmgmt.NewTask{Title: wide(taskmgmt.MaxTitleLen), Description: wide(taskmgmt.MaxDescriptionLen), Start: "2025-11-01", End: "2025-11-02"}
	task := must[taskmgmt.Task](t, "CreateTask, the largest")(s.CreateTask(ctx, tm.ID, in))
	equal(t, "GetTask, the largest", must[taskmgmt.Task](t, "GetTask")(s.GetTask(ctx, tm.ID, task.ID)).Description, in.Description)
}

// Secret is a TokenSecret for the tests: 32 bytes.
var Secret = []byte("0123456789abcdef0123456789abcdef")

// testTokenSecret: under a TokenSecret, the token Invite returns accepts,
// a wrong one does not; a secret under 32 bytes is refused before any
// write.
func testTokenSecret(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore, func(o *taskmgmt.Options) { o.TokenSecret = Secret })
	ctx := t.Context()
	tm := inviteFixture(t, s)
	inv := must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	if len(inv.Token) < 43 {
		t.Fatalf("Invite gave token %q, want a derived one", inv.Token)
	}
	wrong := accept(inv)
	wrong.Token = inv.Token[:len(inv.Token)-1] + "A"
	if wrong.Token == inv.Token {
		wrong.Token = inv.Token[:len(inv.Token)-1] + "B"
	}
	_, err := s.AcceptInvitation(ctx, "u3", wrong)
	wantErr(t, "AcceptInvitation with a wrong token", err, ddbkit.ErrNotFound)
	must[taskmgmt.Member](t, "AcceptInvitation with the token")(s.AcceptInvitation(ctx, "u3", accept(inv)))
	if !isMember(t, s, tm.ID, "u3") {
		t.Fatal("u3 is no member after accepting")
	}

	short, _ := fixed(t, newStore, func(o *taskmgmt.Options) { o.TokenSecret = Secret[:31] })
	tm = inviteFixture(t, short)
	_, err = short.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"})
	wantField(t, "Invite with a 31-byte TokenSecret", err, "TokenSecret")
	equal(t, "invitations after a refused Invite", len(invitations(t, short, tm.ID)), 0)
}
