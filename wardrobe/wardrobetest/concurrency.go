package wardrobetest

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// testConcurrentHistories has many writers add and delete histories of the
// same clothes and template at once, then checks that the cached
// statistics, the daily counters and the surviving histories agree exactly.
func testConcurrentHistories(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore, func(o *wardrobe.Options) { o.MaxAttempts = 100 })
	w := mustWardrobe(t, s, "w")
	cs := mustClothes(t, s, w.ID, 4)
	tp := mustTemplate(t, s, w.ID, "tp", ids(cs, 0, 1)...)
	days := []wardrobe.Date{"20260101", "20260102", "20260103"}
	const (
		workers = 16
		ops     = 6
	)
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		survivors = map[string]wardrobe.History{}
		added     int
		deleted   int
		conflicts int
	)
	for wk := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(wk), 42))
			var mine []wardrobe.History
			for range ops {
				if len(mine) > 0 && rng.IntN(3) == 0 {
					i := rng.IntN(len(mine))
					h := mine[i]
					err := s.DeleteHistory(ctx(t), w.ID, h.ID)
					mu.Lock()
					switch {
					case err == nil:
						mine = slices.Delete(mine, i, i+1)
						delete(survivors, h.ID)
						deleted++
					case errors.Is(err, ddbkit.ErrConflict):
						conflicts++
					default:
						t.Errorf("DeleteHistory: %v", err)
					}
					mu.Unlock()
					continue
				}
				in := wardrobe.NewHistory{Date: days[rng.IntN(len(days))]}
				for _, i := range rng.Perm(len(cs))[:1+rng.IntN(len(cs))] {
					in.ClothingIDs = append(in.ClothingIDs, cs[i].ID)
				}
				if rng.IntN(2) == 0 {
					in.TemplateID = tp.ID
				}
				h, err := s.AddHistory(ctx(t), w.ID, in)
				mu.Lock()
				switch {
				case err == nil:
					mine = append(mine, h)
					survivors[h.ID] = h
					added++
				case errors.Is(err, ddbkit.ErrConflict):
					conflicts++
				default:
					t.Errorf("AddHistory(%+v): %v", in, err)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	t.Logf("%d histories added, %d deleted, %d operations gave up on conflicts", added, deleted, conflicts)
	if added == 0 {
		t.Fatalf("no AddHistory succeeded")
	}

	// The surviving histories are exactly those added and not deleted.
	listed := allHistory(t, s, w.ID)
	var gotIDs, wantIDs []string
	for _, h := range listed {
		gotIDs = append(gotIDs, h.ID)
		if want, ok := survivors[h.ID]; !ok || !reflect.DeepEqual(h.History, want) {
			t.Fatalf("listed history %+v, want %+v (known: %v)", h.History, want, ok)
		}
	}
	for id := range survivors {
		wantIDs = append(wantIDs, id)
	}
	slices.Sort(gotIDs)
	slices.Sort(wantIDs)
	if !slices.Equal(gotIDs, wantIDs) {
		t.Fatalf("surviving histories %v, want %v", gotIDs, wantIDs)
	}

	// What the histories say each item's statistics are.
	type truth struct {
		count int
		last  time.Time
		byDay map[wardrobe.Date]int
	}
	model := func(wears func(wardrobe.History) bool) truth {
		tr := truth{byDay: map[wardrobe.Date]int{}}
		for _, h := range listed {
			if !wears(h.History) {
				continue
			}
			tr.count++
			tr.byDay[h.Date]++
			if d := day(t, h.Date); d.After(tr.last) {
				tr.last = d
			}
		}
		return tr
	}
	check := func(what string, kind wardrobe.Kind, id string, count int, last time.Time, tr truth) {
		t.Helper()
		if count != tr.count || !last.Equal(tr.last) {
			t.Errorf("%s: WearCount %d, LastWornAt %v; the histories say %d, %v", what, count, last, tr.count, tr.last)
		}
		sum := 0
		got := map[wardrobe.Date]int{}
		for _, d := range allDaily(t, s, w.ID, kind, id) {
			if d.Count <= 0 {
				t.Errorf("%s: daily counter %s has count %d", what, d.Date, d.Count)
			}
			sum += d.Count
			got[d.Date] = d.Count
		}
		if sum != count {
			t.Errorf("%s: daily counters sum to %d, WearCount is %d", what, sum, count)
		}
		if !reflect.DeepEqual(got, tr.byDay) {
			t.Errorf("%s: daily counters %v, the histories say %v", what, got, tr.byDay)
		}
	}
	for _, c := range cs {
		got := getClothing(t, s, w.ID, c.ID)
		check("clothing "+c.Name, wardrobe.KindClothing, c.ID, got.WearCount, got.LastWornAt,
			model(func(h wardrobe.History) bool { return slices.Contains(h.ClothingIDs, c.ID) }))
	}
	got := getTemplate(t, s, w.ID, tp.ID)
	check("template", wardrobe.KindTemplate, tp.ID, got.WearCount, got.LastWornAt,
		model(func(h wardrobe.History) bool { return h.TemplateID == tp.ID }))

	rep, err := s.RecalculateStats(ctx(t), w.ID)
	if err != nil || rep.Checked != len(cs)+1 || len(rep.Drifts) != 0 {
		t.Fatalf("RecalculateStats = %+v, %v; want %d checked, no drift", rep, err, len(cs)+1)
	}
}
