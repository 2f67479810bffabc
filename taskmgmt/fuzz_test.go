package taskmgmt_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"net/mail"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/fuzzcheck"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// The fuzz targets of issue 39 for what taskmgmt reads but did not write:
// items of every kind, MemoryStore.Import, stream records, the cursors
// callers hand back, and the input of every write. Items come as DynamoDB
// JSON ({"PK":{"S":"TEAM#t1"},...}), the form of a Scan's output and of a
// stream image, so the seeds under testdata/fuzz read as items.

const (
	fuzzTable      = "task-table-v3"
	fuzzInvitation = taskmgmt.DefaultInvitationTableName
)

// parseItem reads a DynamoDB JSON item.
func parseItem(js []byte) (item, bool) {
	var img map[string]events.DynamoDBAttributeValue
	if len(js) > fuzzcheck.MaxInput || !unmarshalEvent(js, &img) || img == nil {
		return nil, false
	}
	return imageItem(img), true
}

// unmarshalEvent is json.Unmarshal into a type of aws-lambda-go's events.
// Its decoder panics on a Binary Set holding anything but strings; that is
// the Lambda runtime's decoding, which recovers the panic and fails the
// invocation before any code of ddbkit runs, so such JSON is no input here.
func unmarshalEvent(js []byte, v any) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return json.Unmarshal(js, v) == nil
}

// itemJSON is it in DynamoDB JSON, for the seeds.
func itemJSON(it item) []byte {
	js, err := json.Marshal(taskmgmt.ItemImage(it))
	if err != nil {
		panic(err)
	}
	return js
}

// fuzzItems are the seeds' items: the legacy fixtures (the seed app's
// items, the corrupt task among them), the stream fixture's invitations,
// and interop shapes of each kind.
func fuzzItems() []item {
	now := time.Date(2025, 11, 10, 9, 0, 0, 0, time.UTC)
	items := legacyItems(now)
	for _, inv := range legacyStreamInvitations() {
		items = append(items, inv.item)
	}
	null := &types.AttributeValueMemberNULL{Value: true}
	every := func(base item) item {
		it := maps.Clone(base)
		it["x_s"], it["x_n"], it["x_b"] = S(""), &types.AttributeValueMemberN{Value: "-1.5e3"}, &types.AttributeValueMemberB{Value: []byte{0, 1}}
		it["x_bool"], it["x_null"], it["x_ss"] = &types.AttributeValueMemberBOOL{Value: true}, null, SS("a", "b")
		it["x_ns"], it["x_bs"] = &types.AttributeValueMemberNS{Value: []string{"1"}}, &types.AttributeValueMemberBS{Value: [][]byte{{1}}}
		it["x_l"] = &types.AttributeValueMemberL{Value: []types.AttributeValue{S("a"), N(1), null, M("k", "v")}}
		it["x_m"] = M("k", "v")
		return it
	}
	items = append(items,
		every(item{"PK": S("USER#u9"), "SK": S("USER#u9"), "type": S("user"), "user_email": null, "user_name": N(42),
			"user_createdAt": S("2025-11-01T10:00:00Z")}),
		item{"PK": S("TEAM#t9"), "SK": S("TAG#tg"), "type": S("team_tag"), "team_tag_name": S(strings.Repeat("長", 3000)),
			"team_tag_color": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"color": N(1), "backgroundColor": null}}},
		item{"PK": S("TEAM#t9"), "SK": S("TASK#x"), "type": S("task"), "team_task_status": S("done"),
			"team_task_startTime": S("2025-11-03T00:00:00+09:00"), "team_task_endTime": S("2025-11-03T24:00:00Z"),
			"team_task_tagRef": &types.AttributeValueMemberL{Value: []types.AttributeValue{S("TAG#a"), S("b"), N(3)}}},
		item{"PK": S("TEAM#t9"), "SK": S("TASK#y"), "type": S("task"), "team_task_status": S("todo"),
			"team_task_startTime": S("2025-11-03T00:00Z"), "team_task_tagRef": SS("TAG#")},
		item{"PK": S("TEAM#t9"), "SK": S("COUNTER#2025-11-09#3"), "type": S("counter"), "todo": S("1"), "expiresAt": N(-1)},
		item{"PK": S("TEAM#t9"), "SK": S("COUNTER#2025-02-30"), "todo": &types.AttributeValueMemberN{Value: "1e400"}},
		item{"PK": S("TEAM#t9"), "SK": S("TINVITE#i"), "type": S("invitation"), "user_role": S("member"),
			"expiresAt": &types.AttributeValueMemberN{Value: "99999999999999999999999"}, "token": S("sha256:00")},
		item{"PK": N(1), "SK": null},
		item{},
	)
	return items
}

// stringsOf returns every string in it: names and values, nested ones too.
func stringsOf(it item) []string {
	var out []string
	var walk func(v types.AttributeValue)
	walk = func(v types.AttributeValue) {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			out = append(out, v.Value)
		case *types.AttributeValueMemberN:
			out = append(out, v.Value)
		case *types.AttributeValueMemberSS:
			out = append(out, v.Value...)
		case *types.AttributeValueMemberNS:
			out = append(out, v.Value...)
		case *types.AttributeValueMemberL:
			for _, e := range v.Value {
				walk(e)
			}
		case *types.AttributeValueMemberM:
			for k, e := range v.Value {
				out = append(out, k)
				walk(e)
			}
		}
	}
	for k, v := range it {
		out = append(out, k)
		walk(v)
	}
	return out
}

// tokenOf is an item's token attribute, the secret no error may repeat.
func tokenOf(it item) string {
	if s, ok := it["token"].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// FuzzDecodeItem decodes a raw item as every entity kind. Each decoder
// returns a value or ErrCorruptItem, with a bounded error that never holds
// the token; a value encodes to the item the DynamoDB store writes for it,
// which decodes to the same value (the round trip of ddbkit's own shape).
func FuzzDecodeItem(f *testing.F) {
	for _, it := range fuzzItems() {
		f.Add(itemJSON(it))
	}
	kinds := taskmgmt.ItemKinds(fuzzTable)
	f.Fuzz(func(t *testing.T, js []byte) {
		it, ok := parseItem(js)
		if !ok {
			return
		}
		inputs := stringsOf(it)
		for _, k := range kinds {
			v, err := k.Decode(it)
			if err != nil {
				if !errors.Is(err, ddbkit.ErrCorruptItem) {
					t.Fatalf("%s: decode error %v, want ErrCorruptItem", k.Name, err)
				}
				fuzzcheck.Bounded(t, err, inputs, tokenOf(it))
				continue
			}
			own := k.Encode(v)
			again, err := k.Decode(own)
			if err != nil {
				t.Fatalf("%s: decoding the item written for %+v: %v\nitem %v", k.Name, v, err, own)
			}
			if !reflect.DeepEqual(again, v) {
				t.Fatalf("%s: decoded %+v, which writes an item that decodes to %+v", k.Name, v, again)
			}
		}
	})
}

// FuzzImport imports one raw item into each table of a memory store. It
// either fails with ErrCorruptItem and leaves the store as it was, or
// keeps the item exactly as given, under its key.
func FuzzImport(f *testing.F) {
	for _, it := range fuzzItems() {
		f.Add(itemJSON(it), false, "")
		f.Add(itemJSON(it), true, "")
	}
	f.Add(itemJSON(item{"PK": S("USER#u1"), "SK": S("USER#u1"), "type": S("user")}), false, "user_name")
	f.Add(itemJSON(item{"PK": S("TEAM#t1"), "SK": S("TINVITE#i"), "expiresAt": N(9), "user_role": S("admin")}), true, "token")
	f.Fuzz(func(t *testing.T, js []byte, invitations bool, nilAttr string) {
		it, ok := parseItem(js)
		if !ok {
			return
		}
		if nilAttr != "" {
			it[nilAttr] = nil // what no decoder can take, and Import must refuse
		}
		name := fuzzTable
		if invitations {
			name = fuzzInvitation
		}
		s := taskmgmt.NewMemoryStore(func(o *taskmgmt.Options) { o.TableName = fuzzTable })
		before := s.Export()
		err := s.Import(ddbkit.TableItems{name: {it}})
		if err != nil {
			if !errors.Is(err, ddbkit.ErrCorruptItem) {
				t.Fatalf("Import error %v, want ErrCorruptItem", err)
			}
			fuzzcheck.Bounded(t, err, stringsOf(it), tokenOf(it))
			if after := s.Export(); !reflect.DeepEqual(after, before) {
				t.Fatalf("a failed Import changed the store: %v", after)
			}
			return
		}
		got := s.Export()[name]
		if len(got) != 1 || !reflect.DeepEqual(got[0], it) {
			t.Fatalf("Import kept %v, want the item as given: %v", got, it)
		}
	})
}

// fuzzSecret is the TokenSecret of FuzzStreamRecord's handler when it
// has one.
var fuzzSecret = []byte(strings.Repeat("s", 32))

// FuzzStreamRecord hands the stream handler one record of the invitation
// table and checks its decision against the documented outcomes: a record
// other than an INSERT is ignored; an INSERT of an invitation is mailed
// (live, decoded, its address valid), ignored (expired), skipped (a
// corrupt or invalid image, no new image, a token not of the secret:
// OnSkip, with an error that matches its sentinel, is bounded and holds
// neither the token nor the address), or failed (a hashed token and no
// secret: a configuration error a redeploy mends). Never more than one of
// those, and never a panic.
func FuzzStreamRecord(f *testing.F) {
	keys := itemJSON(item{"PK": S("TEAM#t1"), "SK": S("TINVITE#i1")})
	for _, it := range fuzzItems() {
		for _, name := range []string{"INSERT", "MODIFY", "REMOVE"} {
			f.Add(name, itemJSON(it), true, keys, false)
		}
		f.Add("INSERT", itemJSON(it), true, keys, true)
	}
	f.Add("INSERT", []byte(nil), false, keys, false)
	f.Add("INSERT", []byte(nil), false, itemJSON(item{"PK": S("TEAM#t1"), "SK": N(1)}), false)
	f.Add("INSERT", itemJSON(item{"PK": S("IDEMPOTENCY#x"), "SK": S("TINVITE#i"), "type": S("invitation")}), true,
		itemJSON(item{"PK": S("IDEMPOTENCY#x"), "SK": S("TINVITE#i")}), false)
	now := streamLegacyNow
	kinds := taskmgmt.ItemKinds(fuzzInvitation)
	inv := kinds[slices.IndexFunc(kinds, func(k taskmgmt.ItemKind) bool { return k.Name == "invitation" })]
	f.Fuzz(func(t *testing.T, eventName string, imageJS []byte, hasImage bool, keysJS []byte, secret bool) {
		var image map[string]events.DynamoDBAttributeValue
		if hasImage && (len(imageJS) > fuzzcheck.MaxInput || !unmarshalEvent(imageJS, &image) || image == nil) {
			return
		}
		var keys map[string]events.DynamoDBAttributeValue
		if len(keysJS) > fuzzcheck.MaxInput || !unmarshalEvent(keysJS, &keys) {
			return
		}
		rec := events.DynamoDBEventRecord{EventName: eventName,
			EventSourceArn: "arn:aws:dynamodb:ap-northeast-1:123456789012:table/" + fuzzInvitation + "/stream/2026-01-11T14:20:00.000",
			Change:         events.DynamoDBStreamRecord{Keys: keys, NewImage: image, SequenceNumber: "1", StreamViewType: "NEW_IMAGE"}}
		m := &recordingMailer{}
		var skipped []taskmgmt.SkippedRecord
		h := taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return now },
			OnSkip: func(r taskmgmt.SkippedRecord) { skipped = append(skipped, r) }}
		if secret {
			h.TokenSecret = fuzzSecret
		}
		resp, err := h.Handle(context.Background(), events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{rec}})
		if err != nil {
			t.Fatalf("Handle error %v, want nil always", err)
		}
		failed := len(resp.BatchItemFailures)
		if n := len(m.mailed) + len(skipped) + failed; n > 1 {
			t.Fatalf("one record: mailed %d, skipped %d, failed %d", len(m.mailed), len(skipped), failed)
		}
		if eventName != "INSERT" && len(m.mailed)+len(skipped)+failed > 0 {
			t.Fatalf("a %q record: mailed %d, skipped %d, failed %d; want it ignored", eventName, len(m.mailed), len(skipped), failed)
		}
		it := imageItem(image)
		isInvitation := false
		if typ, ok := it["type"].(*types.AttributeValueMemberS); ok && typ.Value == "invitation" {
			pk, _ := keys["PK"]
			isInvitation = pk.DataType() != events.DataTypeString || !strings.HasPrefix(pk.String(), "IDEMPOTENCY#")
		}
		v, decErr := inv.Decode(it)
		switch {
		case len(m.mailed) == 1:
			got, want := m.mailed[0], taskmgmt.Invitation{}
			if decErr == nil {
				want = v.(taskmgmt.Invitation)
			}
			if !isInvitation || decErr != nil || !want.Live(now) {
				t.Fatalf("mailed %+v from a record of no live invitation (decode error %v)", got, decErr)
			}
			if got.Token == "" || strings.HasPrefix(got.Token, "sha256:") {
				t.Fatalf("mailed token %q, want the link's token", got.Token)
			}
			got.Token, want.Token = "", ""
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("mailed %+v, want the image's invitation %+v", got, want)
			}
			if a, err := mail.ParseAddress(got.Email); err != nil || a.Address != got.Email || a.Name != "" {
				t.Fatalf("mailed to %q, which Invite refuses", got.Email)
			}
		case len(skipped) == 1:
			err := skipped[0].Err
			if !errors.Is(err, ddbkit.ErrCorruptItem) && !errors.Is(err, ddbkit.ErrInvalidArgument) && !strings.Contains(err.Error(), "does not derive") {
				t.Fatalf("skipped for %v, want ErrCorruptItem, ErrInvalidArgument or a token not of the secret", err)
			}
			secrets := []string{tokenOf(it)}
			if e, ok := it["email"].(*types.AttributeValueMemberS); ok {
				secrets = append(secrets, e.Value)
			}
			fuzzcheck.Bounded(t, err, append(stringsOf(it), stringsOf(imageItem(keys))...), secrets...)
		case failed == 1:
			if resp.BatchItemFailures[0].ItemIdentifier != "1" || secret || decErr != nil || !strings.HasPrefix(v.(taskmgmt.Invitation).Token, "sha256:") {
				t.Fatalf("failed %+v: want a failure only for a hashed token without TokenSecret", resp.BatchItemFailures)
			}
		case eventName == "INSERT" && hasImage && isInvitation:
			if decErr != nil || v.(taskmgmt.Invitation).Live(now) {
				t.Fatalf("an INSERT of an invitation neither mailed, skipped nor failed: decode error %v, invitation %+v", decErr, v)
			}
		}
	})
}

// imageItem is a record's image (or keys) as an item.
func imageItem(keys map[string]events.DynamoDBAttributeValue) item {
	it := item{}
	for k, v := range keys {
		it[k] = taskmgmt.AttributeValueOf(v)
	}
	return it
}

// fuzzListings are the listings of the legacy fixture's team and user:
// plain, filtered (the board's tag filter, the live invitations) and by
// index (the boards, the daily counters).
func fuzzListings(s taskmgmt.Store) []fuzzcheck.Listing {
	board := func(q taskmgmt.BoardQuery) func(context.Context, ddbkit.PageOptions) (string, error) {
		return func(ctx context.Context, o ddbkit.PageOptions) (string, error) {
			q.PageOptions = o
			return fuzzcheck.Page(s.ListBoard(ctx, "t1", q))
		}
	}
	return []fuzzcheck.Listing{
		{Name: "members", List: func(ctx context.Context, o ddbkit.PageOptions) (string, error) {
			return fuzzcheck.Page(s.ListMembers(ctx, "t1", o))
		}},
		{Name: "user teams", List: func(ctx context.Context, o ddbkit.PageOptions) (string, error) {
			return fuzzcheck.Page(s.ListUserTeams(ctx, "u1", o))
		}},
		{Name: "tags", List: func(ctx context.Context, o ddbkit.PageOptions) (string, error) {
			return fuzzcheck.Page(s.ListTags(ctx, "t1", o))
		}},
		{Name: "board all", List: board(taskmgmt.BoardQuery{View: taskmgmt.ViewAll})},
		{Name: "board todo or done by end", List: board(taskmgmt.BoardQuery{Statuses: []taskmgmt.Status{taskmgmt.StatusTodo, taskmgmt.StatusDone}, Sort: taskmgmt.SortEnd})},
		{Name: "board tagged", List: board(taskmgmt.BoardQuery{View: taskmgmt.ViewAll, TagIDs: []string{"tag1"}})},
		{Name: "daily", List: func(ctx context.Context, o ddbkit.PageOptions) (string, error) {
			return fuzzcheck.Page(s.ListDailyCounts(ctx, "t1", taskmgmt.DailyQuery{From: "2025-01-01", To: "2025-12-31", PageOptions: o}))
		}},
		{Name: "invitations", List: func(ctx context.Context, o ddbkit.PageOptions) (string, error) {
			return fuzzcheck.Page(s.ListInvitations(ctx, "t1", o))
		}},
	}
}

// cursorStore is a memory store holding the legacy fixture (without its
// corrupt task) and the stream fixture's invitations, with a CursorSecret.
func cursorStore(t testing.TB) *taskmgmt.MemoryStore {
	now := time.Date(2025, 11, 10, 9, 0, 0, 0, time.UTC)
	s := taskmgmt.NewMemoryStore(legacyOptions(fuzzTable, now), func(o *taskmgmt.Options) {
		o.CursorSecret = []byte(strings.Repeat("c", 32))
		o.Clock = func() time.Time { return streamLegacyNow }
	})
	// u1's second team, so that the listing of u1's teams has a cursor,
	tasks := []item{{"PK": S("USER#u1"), "SK": S("TEAM#t2"), "type": S("user_team"), "user_team_role": S("member"),
		"user_team_joinedAt": S("2025-11-09"), "team_name": S("二つ目")},
		// and two days' counters alive at the store's clock, so that the
		// daily listing has one.
		{"PK": S("TEAM#t1"), "SK": S("COUNTER#2025-11-08"), "type": S("counter"), "todo": N(1), "doing": N(0), "done": N(0),
			"expiresAt": N(streamLegacyNow.Unix() + 86400)},
		{"PK": S("TEAM#t1"), "SK": S("COUNTER#2025-11-07"), "type": S("counter"), "todo": N(2), "doing": N(0), "done": N(0),
			"expiresAt": N(streamLegacyNow.Unix() + 86400)}}
	var invs []item
	for _, it := range legacyItems(now) {
		if it["SK"].(*types.AttributeValueMemberS).Value != "TASK#task4" {
			tasks = append(tasks, it)
		}
	}
	for _, inv := range legacyStreamInvitations() {
		invs = append(invs, inv.item)
	}
	if err := s.Import(ddbkit.TableItems{fuzzTable: tasks, fuzzInvitation: invs}); err != nil {
		t.Fatal(err)
	}
	return s
}

// FuzzCursor hands every listing (plain, by index, filtered) a cursor: one
// it issued pages on, and anything else (another listing's, a changed or
// forged one) is ErrInvalidCursor, with an error that does not repeat it.
func FuzzCursor(f *testing.F) {
	fuzzcheck.Cursors(f, fuzzListings(cursorStore(f)))
}

// inputStore is a memory store holding the legacy fixture without its
// corrupt task: user u1, admin of team t1, with tags and tasks.
func inputStore(t *testing.T) *taskmgmt.MemoryStore {
	now := time.Date(2025, 11, 10, 9, 0, 0, 0, time.UTC)
	s := taskmgmt.NewMemoryStore(legacyOptions(fuzzTable, now))
	var items []item
	for _, it := range legacyItems(now) {
		if it["SK"].(*types.AttributeValueMemberS).Value != "TASK#task4" {
			items = append(items, it)
		}
	}
	if err := s.Import(ddbkit.TableItems{fuzzTable: items}); err != nil {
		t.Fatal(err)
	}
	return s
}

// tagList is the fuzzer's string of tag IDs, comma-separated; "" for none.
func tagList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// FuzzInput runs each write on a store with the fuzzer's input (the New*
// and patch types, and the names and addresses of the other writes). A
// refused input matches a documented sentinel, with a bounded error, and
// leaves the store as it was (Export before and after); an accepted one is
// stored as given: the result has the input's fields, and a read returns
// the result.
func FuzzInput(f *testing.F) {
	f.Add(byte(0), "u9", "u9@example.com", "名前", "https://example.com/u9.png", "", "", byte(0))
	f.Add(byte(0), "u9", "alice-at-example.com", "n", "", "", "", byte(0))
	f.Add(byte(0), "a#b", "a@b.c", " ", "javascript:x", "", "", byte(0))
	f.Add(byte(1), "チーム", "説明\n二行目", "", "", "", "", byte(0))
	f.Add(byte(1), "\u202e", strings.Repeat("x", 5000), "", "", "", "", byte(0))
	f.Add(byte(2), "新しい名前", "", "", "", "", "", byte(3))
	f.Add(byte(2), "", "", "", "", "", "", byte(1))
	f.Add(byte(3), "urgent", "", "#ff0000", "#ffffff", "", "", byte(0))
	f.Add(byte(3), "x", "", "red", "", "", "", byte(0))
	f.Add(byte(4), "title", "desc", "doing", "2025-11-01", "2025-11-30", "tag1,tag2,tag1", byte(0))
	f.Add(byte(4), "title", "", "", "2025-02-29", "2025-03-01", "", byte(0))
	f.Add(byte(4), "title", "", "blocked", "2025-11-30", "2025-11-01", "nope", byte(0))
	f.Add(byte(4), "title", "", "todo", "2025-11-01T00:00:00Z", "2025-11-01", "", byte(0))
	f.Add(byte(5), "renamed", "d", "done", "2025-11-01", "2025-11-02", "tag2", byte(63))
	f.Add(byte(5), "", "", "", "", "", "", byte(1))
	f.Add(byte(6), "新しい名前", "", "", "", "", "", byte(0))
	f.Add(byte(7), "bob@example.com", "admin", "", "", "", "", byte(0))
	f.Add(byte(7), "Bob <bob@example.com>", "", "", "", "", "", byte(0))
	f.Add(byte(7), "bob@example.com", "owner", "", "", "", "", byte(0))
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, op byte, a, b, c, d, e, g string, flags byte) {
		if len(a)+len(b)+len(c)+len(d)+len(e)+len(g) > fuzzcheck.MaxInput {
			return
		}
		s := inputStore(t)
		before := s.Export()
		var err error
		check := func(what string, ok bool, got, read any, readErr error) {
			t.Helper()
			fuzzcheck.Accepted(t, err, what, ok, got, read, readErr)
		}
		opt := func(bit byte, v string) *string {
			if flags&bit == 0 {
				return nil
			}
			return &v
		}
		switch op % 8 {
		case 0:
			var u taskmgmt.User
			u, err = s.CreateUser(ctx, taskmgmt.NewUser{ID: a, Email: b, Name: c, Image: d})
			read, rerr := s.GetUser(ctx, a)
			check("CreateUser", u.ID == a && u.Email == b && u.Name == c && u.Image == d, u, read, rerr)
		case 1:
			var tm taskmgmt.Team
			tm, err = s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: a, Description: b})
			read, rerr := s.GetTeam(ctx, tm.ID)
			check("CreateTeam", tm.Name == a && tm.Description == b, tm, read, rerr)
		case 2:
			var tm taskmgmt.Team
			old, _ := s.GetTeam(ctx, "t1")
			p := taskmgmt.TeamPatch{Name: opt(1, a), Description: opt(2, b)}
			tm, err = s.UpdateTeam(ctx, "t1", "u1", p)
			want := old
			if p.Name != nil {
				want.Name = a
			}
			if p.Description != nil {
				want.Description = b
			}
			read, rerr := s.GetTeam(ctx, "t1")
			check("UpdateTeam", tm == want, tm, read, rerr)
		case 3:
			var tg taskmgmt.Tag
			tg, err = s.CreateTag(ctx, "t1", taskmgmt.NewTag{Name: a, Color: taskmgmt.Color{Color: c, BackgroundColor: d}})
			var read taskmgmt.Tag
			var rerr error = errors.New("not listed")
			for x, lerr := range allTags(ctx, s) {
				if lerr != nil {
					rerr = lerr
					break
				}
				if x.ID == tg.ID {
					read, rerr = x, nil
				}
			}
			check("CreateTag", tg.Name == a && tg.Color == taskmgmt.Color{Color: c, BackgroundColor: d}, tg, read, rerr)
		case 4:
			in := taskmgmt.NewTask{Title: a, Description: b, Status: taskmgmt.Status(c), Start: taskmgmt.Date(d), End: taskmgmt.Date(e), TagIDs: tagList(g)}
			var tk taskmgmt.Task
			tk, err = s.CreateTask(ctx, "t1", in)
			want := cmpTags(in.TagIDs)
			status := in.Status
			if status == "" {
				status = taskmgmt.StatusTodo
			}
			read, rerr := s.GetTask(ctx, "t1", tk.ID)
			check("CreateTask", tk.Title == a && tk.Description == b && tk.Status == status && tk.Start == in.Start && tk.End == in.End &&
				slices.Equal(tk.TagIDs, want), tk, read, rerr)
		case 5:
			old, _ := s.GetTask(ctx, "t1", "task1")
			status, start, end, tags := taskmgmt.Status(c), taskmgmt.Date(d), taskmgmt.Date(e), tagList(g)
			p := taskmgmt.TaskPatch{Title: opt(1, a), Description: opt(2, b)}
			want := old
			if flags&4 != 0 {
				p.Status, want.Status = &status, status
			}
			if flags&8 != 0 {
				p.Start, want.Start = &start, start
			}
			if flags&16 != 0 {
				p.End, want.End = &end, end
			}
			if flags&32 != 0 {
				p.TagIDs, want.TagIDs = &tags, cmpTags(tags)
			}
			if p.Title != nil {
				want.Title = a
			}
			if p.Description != nil {
				want.Description = b
			}
			var tk taskmgmt.Task
			tk, err = s.UpdateTask(ctx, "t1", "task1", p)
			read, rerr := s.GetTask(ctx, "t1", "task1")
			check("UpdateTask", reflect.DeepEqual(tk, want), tk, read, rerr)
		case 6:
			var u taskmgmt.User
			u, err = s.RenameUser(ctx, "u1", a)
			read, rerr := s.GetUser(ctx, "u1")
			check("RenameUser", u.Name == a, u, read, rerr)
		case 7:
			var inv taskmgmt.Invitation
			inv, err = s.Invite(ctx, "t1", "u1", taskmgmt.NewInvitation{Email: a, Role: taskmgmt.Role(b)})
			read, rerr := s.GetInvitation(ctx, "t1", inv.ID)
			inv.Token = "" // a read never returns it
			check("Invite", inv.Email == a && (b == "" || inv.Role == taskmgmt.Role(b)), inv, read, rerr)
		}
		if err == nil {
			return
		}
		fuzzcheck.Refused(t, err, fmt.Sprintf("op %d", op%8),
			[]error{ddbkit.ErrInvalidArgument, ddbkit.ErrNotFound, ddbkit.ErrConflict, ddbkit.ErrAlreadyExists},
			[]string{a, b, c, d, e, g}, before, s.Export())
	})
}

// cmpTags is a task's TagIDs for the input ids: each once, sorted; nil
// for none.
func cmpTags(ids []string) []string {
	if len(ids) == 0 {
		return nil
	}
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// allTags walks t1's tags.
func allTags(ctx context.Context, s taskmgmt.Store) iter.Seq2[taskmgmt.Tag, error] {
	return ddbkit.All(func(cursor string) (ddbkit.Page[taskmgmt.Tag], error) {
		return s.ListTags(ctx, "t1", ddbkit.PageOptions{Cursor: cursor})
	})
}
