package taskmgmt_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// TestRecalculateReportsCorruptTasks puts a task no store can decode
// beside two good ones, raw, and checks that RecalculateCounters counts
// the good ones and reports the bad one in Skipped, on both stores.
func TestRecalculateReportsCorruptTasks(t *testing.T) {
	bad := item{"PK": S("TEAM#id01"), "SK": S("TASK#bad"), "type": S("task"), "team_task_title": S("壊れた"),
		"team_task_status": S("blocked"), "team_task_startTime": S("2025-11-04"), "team_task_endTime": S("2025-11-06")}
	stores := []struct {
		name   string
		newRaw func(t *testing.T, shards int) (taskmgmt.Store, func(item))
	}{
		{"memory", func(t *testing.T, shards int) (taskmgmt.Store, func(item)) {
			s := taskmgmt.NewMemoryStore(deterministic, func(o *taskmgmt.Options) { o.CounterShards = shards })
			return s, func(it item) {
				if err := s.ImportUnchecked(ddbkit.TableItems{taskmgmt.DefaultTableName: {it}}); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"dynamo", func(t *testing.T, shards int) (taskmgmt.Store, func(item)) {
			s, c, table := newDynamo(t, nil, deterministic, func(o *taskmgmt.Options) { o.CounterShards = shards })
			return s, func(it item) { putRaw(t, c, table, it) }
		}},
	}
	for _, st := range stores {
		for _, shards := range []int{1, 4} {
			t.Run(fmt.Sprint(st.name, "/shards=", shards), func(t *testing.T) {
				s, put := st.newRaw(t, shards)
				ctx := t.Context()
				must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "e@example.com", Name: "n"}))
				must[taskmgmt.Team](t)(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "t"}))
				for _, status := range []taskmgmt.Status{taskmgmt.StatusTodo, taskmgmt.StatusDone} {
					must[taskmgmt.Task](t)(s.CreateTask(ctx, "id01", taskmgmt.NewTask{Title: "t", Status: status, Start: "2025-11-01", End: "2025-11-02"}))
				}
				put(bad)
				rep := must[taskmgmt.CounterReport](t)(s.RecalculateCounters(ctx, "id01"))
				want := taskmgmt.Counts{Todo: 1, Done: 1}
				if rep.Was != want || rep.Counts != want || rep.Drift || rep.Checked != 2 {
					t.Errorf("report = %+v, want Was and Counts %+v, no drift, 2 checked", rep, want)
				}
				var ce *ddbkit.CorruptItemError
				if len(rep.Skipped) != 1 || !errors.As(rep.Skipped[0], &ce) || !strings.Contains(ce.Key, "TASK#bad") ||
					len(ddbkit.MatchingSentinels(rep.Skipped[0])) != 1 || !strings.HasPrefix(rep.Skipped[0].Error(), "taskmgmt: ") {
					t.Fatalf("Skipped = %v, want one taskmgmt ErrCorruptItem naming TASK#bad", rep.Skipped)
				}
				if !errors.Is(rep.Skipped[0], ddbkit.ErrCorruptItem) {
					t.Fatalf("Skipped[0] = %v does not match ErrCorruptItem", rep.Skipped[0])
				}
			})
		}
	}
}
