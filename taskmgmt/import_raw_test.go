package taskmgmt_test

import (
	"cmp"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// rawLegacy are items another writer of the tables left: attributes this
// package does not know (app_theme, app_note), a user without user_image,
// a user_createdAt and a joinedAt as full ISO 8601 times, a task without
// dates, an invitation without team_name, an inviter without USER#.
func rawLegacy() ddbkit.TableItems {
	return ddbkit.TableItems{
		taskmgmt.DefaultTableName: {
			{"PK": S("USER#u1"), "SK": S("USER#u1"), "type": S("user"), "user_email": S("alice@example.com"),
				"user_name": S("alice"), "user_createdAt": S("2025-11-01T10:00:00Z"), "app_theme": S("dark")},
			{"PK": S("TEAM#t1"), "SK": S("TEAM#t1"), "type": S("team"), "team_name": S("チーム"), "app_note": N(7)},
			{"PK": S("USER#u1"), "SK": S("TEAM#t1"), "type": S("user_team"), "user_team_role": S("admin"),
				"user_team_joinedAt": S("2025-11-09T01:02:03+09:00"), "team_name": S("チーム"), "app_note": S("pinned")},
			{"PK": S("TEAM#t1"), "SK": S("USER#u1"), "type": S("team_user"), "user_team_role": S("admin"),
				"user_team_joinedAt": S("2025-11-09"), "user_name": S("alice"), "app_note": SS("a", "b")},
			{"PK": S("TEAM#t1"), "SK": S("TASK#k1"), "type": S("task"), "team_task_title": S("日付なし"), "team_task_status": S("todo"),
				"status_group1": S("TEAM#t1#Status#todo"), "status_group2": S("TEAM#t1#Status#todo_doing"),
				"status_group3": S("TEAM#t1#Status#todo_done"), "app_note": M("by", "importer")},
			{"PK": S("TEAM#t1"), "SK": S("COUNTER#ALL"), "type": S("counter"), "todo": N(1), "doing": N(0), "done": N(0)},
		},
		taskmgmt.DefaultInvitationTableName: {
			{"PK": S("TEAM#t1"), "SK": S("TINVITE#0194a5b2-7c00-7000-8000-000000000002"), "type": S("invitation"),
				"email": S("erin@example.com"), "user_role": S("member"), "expiresAt": N(1768227600), "invitedBy": S("u1"),
				"token": S("another-token"), "app_theme": S("light")},
		},
	}
}

// TestImportKeepsRawItems checks that MemoryStore.Import keeps the items
// it is given as DynamoDB keeps what PutItem wrote: Export returns them
// unchanged, and after the same writes both stores hold the same items,
// the attributes ddbkit does not know included.
func TestImportKeepsRawItems(t *testing.T) {
	ctx := t.Context()
	now := time.Unix(1768141200, 0)
	opts := func(o *taskmgmt.Options) { o.Clock = func() time.Time { return now } }

	mem := taskmgmt.NewMemoryStore(opts)
	if err := mem.Import(rawLegacy()); err != nil {
		t.Fatalf("Import: %v", err)
	}
	exported := mem.Export()
	for name, items := range rawLegacy() {
		want := slices.Clone(items)
		slices.SortFunc(want, cmpKeys)
		if !reflect.DeepEqual(exported[name], want) {
			t.Fatalf("Export of %s after Import:\n got %v\nwant %v", name, renderAll(exported[name]), renderAll(want))
		}
	}

	dyn, c, table, invTable := newDynamoInv(t, nil, opts)
	for _, it := range rawLegacy()[taskmgmt.DefaultTableName] {
		putRaw(t, c, table, it)
	}
	for _, it := range rawLegacy()[taskmgmt.DefaultInvitationTableName] {
		putRaw(t, c, invTable, it)
	}

	for _, s := range []taskmgmt.Store{mem, dyn} {
		must[taskmgmt.User](t)(s.RenameUser(ctx, "u1", "alice 2"))
		must[taskmgmt.Team](t)(s.UpdateTeam(ctx, "t1", "u1", taskmgmt.TeamPatch{Name: ptr("チーム 2")}))
		must[taskmgmt.Task](t)(s.UpdateTask(ctx, "t1", "k1", taskmgmt.TaskPatch{Title: ptr("題名")}))
	}
	memItems := mem.Export()
	for _, tc := range []struct {
		table, dynTable string
		pk, sk, unknown string
	}{
		{taskmgmt.DefaultTableName, table, "USER#u1", "USER#u1", "app_theme"},
		{taskmgmt.DefaultTableName, table, "TEAM#t1", "TEAM#t1", "app_note"},
		{taskmgmt.DefaultTableName, table, "USER#u1", "TEAM#t1", "app_note"},
		{taskmgmt.DefaultTableName, table, "TEAM#t1", "USER#u1", "app_note"},
		{taskmgmt.DefaultTableName, table, "TEAM#t1", "TASK#k1", "app_note"},
		{taskmgmt.DefaultTableName, table, "TEAM#t1", "COUNTER#ALL", ""},
		{taskmgmt.DefaultInvitationTableName, invTable, "TEAM#t1", "TINVITE#0194a5b2-7c00-7000-8000-000000000002", "app_theme"},
	} {
		got := findItem(memItems[tc.table], tc.pk, tc.sk)
		want := rawItem(t, c, tc.dynTable, tc.pk, tc.sk)
		checkItem(t, "memory vs DynamoDB, "+tc.pk+" "+tc.sk, got, want)
		if _, ok := want[tc.unknown]; tc.unknown != "" && !ok {
			t.Errorf("%s %s lost %s after the updates: %v", tc.pk, tc.sk, tc.unknown, render(want))
		}
	}
	if got := findItem(memItems[taskmgmt.DefaultTableName], "USER#u1", "USER#u1"); !reflect.DeepEqual(got["user_createdAt"], S("2025-11-01T10:00:00Z")) {
		t.Errorf("user_createdAt after RenameUser = %v, want the imported full time kept", got["user_createdAt"])
	}
	if n := len(memItems[taskmgmt.DefaultTableName]); n != len(rawLegacy()[taskmgmt.DefaultTableName]) {
		t.Errorf("memory store holds %d items, want %d", n, len(rawLegacy()[taskmgmt.DefaultTableName]))
	}
}

func keyOf(it item) (string, string) {
	pk, _ := it["PK"].(*types.AttributeValueMemberS)
	sk, _ := it["SK"].(*types.AttributeValueMemberS)
	if pk == nil || sk == nil {
		return "", ""
	}
	return pk.Value, sk.Value
}

func cmpKeys(a, b item) int {
	apk, ask := keyOf(a)
	bpk, bsk := keyOf(b)
	return cmp.Or(cmp.Compare(apk, bpk), cmp.Compare(ask, bsk))
}

func findItem(items []item, pk, sk string) item {
	for _, it := range items {
		if p, s := keyOf(it); p == pk && s == sk {
			return it
		}
	}
	return nil
}

func renderAll(items []item) []map[string]string {
	out := make([]map[string]string, len(items))
	for i, it := range items {
		out[i] = render(it)
	}
	return out
}
