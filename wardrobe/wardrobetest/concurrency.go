package wardrobetest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// testConcurrentHistories has many writers add and delete histories of the
// same clothes and template at once, then checks that the cached
// statistics, the daily counters and the surviving histories agree exactly.
func testConcurrentHistories(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore, func(o *wardrobe.Options) { o.Retry = ddbkit.RetryPolicy{MaxAttempts: 100} })
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
		refused   int
	)
	// One more writer deletes and restores the last clothing meanwhile: an
	// AddHistory naming it may then be refused, and nothing else may change.
	toggled := cs[3]
	var done atomic.Int64 // operations finished
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 5 { // ends DELETED
			// Spread the toggles over the run.
			for done.Load() < int64((i+1)*workers*ops/6) {
				time.Sleep(100 * time.Microsecond)
			}
			var err error
			if i%2 == 0 {
				_, err = s.DeleteClothing(ctx(t), w.ID, toggled.ID)
			} else {
				_, err = s.RestoreClothing(ctx(t), w.ID, toggled.ID)
			}
			if err != nil {
				t.Errorf("delete or restore %d: %v", i, err)
			}
		}
	}()
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
					done.Add(1)
					continue
				}
				in := wardrobe.NewHistory{Date: days[rng.IntN(len(days))]}
				for _, i := range rng.Perm(3)[:1+rng.IntN(3)] {
					in.ClothingIDs = append(in.ClothingIDs, cs[i].ID)
				}
				if rng.IntN(3) == 0 {
					in.ClothingIDs = slices.Insert(in.ClothingIDs, rng.IntN(len(in.ClothingIDs)+1), toggled.ID)
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
				case refusedToggled(err, in.ClothingIDs, toggled.ID):
					refused++
				default:
					t.Errorf("AddHistory(%+v): %v", in, err)
				}
				mu.Unlock()
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	t.Logf("%d histories added, %d deleted, %d refused a DELETED clothing, %d operations gave up on conflicts", added, deleted, refused, conflicts)
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
		last  wardrobe.Date
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
			tr.last = max(tr.last, day(t, h.Date))
		}
		return tr
	}
	check := func(what string, kind wardrobe.Kind, id string, count int, last wardrobe.Date, tr truth) {
		t.Helper()
		if count != tr.count || last != tr.last {
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

	// The index keys agree with the statistics: every listing holds each
	// clothing once, in its status, in the order of its statistics.
	stats := map[wardrobe.Status][]wornStat{}
	for _, c := range cs {
		got := getClothing(t, s, w.ID, c.ID)
		stats[got.Status] = append(stats[got.Status], wornStat{id: got.ID, created: got.CreatedAt, count: got.WearCount, last: got.LastWornAt})
	}
	if len(stats[wardrobe.StatusActive]) != 3 || len(stats[wardrobe.StatusDeleted]) != 1 {
		t.Fatalf("after 3 deletes and 2 restores: %d ACTIVE and %d DELETED clothes, want 3 and 1", len(stats[wardrobe.StatusActive]), len(stats[wardrobe.StatusDeleted]))
	}
	for _, st := range []wardrobe.Status{wardrobe.StatusActive, wardrobe.StatusDeleted} {
		for _, o := range orders {
			for _, desc := range []bool{false, true} {
				checkWalk(t, fmt.Sprintf("ListClothes %s %s desc=%v", st, o, desc), expectOrder(stats[st], o, desc), clothingID,
					clothesFetch(t, s, w.ID, wardrobe.ListQuery{Order: o, Status: st, Descending: desc}), 0)
			}
		}
	}

	rep, err := s.RecalculateStats(ctx(t), w.ID)
	if err != nil || rep.Checked != len(cs)+1 || len(rep.Drifts) != 0 {
		t.Fatalf("RecalculateStats = %+v, %v; want %d checked, no drift", rep, err, len(cs)+1)
	}
}

// refusedToggled reports whether err refuses the clothing id, named by
// ids, as DELETED.
func refusedToggled(err error, ids []string, id string) bool {
	var ve *ddbkit.ValidationError
	if !errors.As(err, &ve) {
		return false
	}
	i := slices.Index(ids, id)
	return i >= 0 && ve.Field == fmt.Sprintf("ClothingIDs[%d]", i)
}

// testConcurrentDeleteOneWins deletes one history from many goroutines at
// once: exactly one succeeds, and its wear is taken back exactly once.
func testConcurrentDeleteOneWins(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore, func(o *wardrobe.Options) { o.Retry = ddbkit.RetryPolicy{MaxAttempts: 100} })
	w := mustWardrobe(t, s, "w")
	cs := mustClothes(t, s, w.ID, 2)
	tp := mustTemplate(t, s, w.ID, "tp", ids(cs, 0, 1)...)
	mustHistory(t, s, w.ID, "20260101", tp.ID, ids(cs, 0, 1)...)
	h := mustHistory(t, s, w.ID, "20260102", tp.ID, ids(cs, 1, 0)...)
	const n = 8
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		wins int
	)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.DeleteHistory(ctx(t), w.ID, h.ID)
			if err != nil && !errors.Is(err, ddbkit.ErrNotFound) {
				t.Errorf("DeleteHistory: %v", err)
			}
			if err == nil {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d of %d concurrent deletes of one history succeeded; want exactly 1", wins, n)
	}
	for _, c := range cs {
		wantClothingStats(t, s, w.ID, c.ID, 1, day(t, "20260101"))
		wantDaily(t, s, w.ID, wardrobe.KindClothing, c.ID, dw("20260101", 1))
	}
	wantTemplateStats(t, s, w.ID, tp.ID, 1, day(t, "20260101"))
	wantDaily(t, s, w.ID, wardrobe.KindTemplate, tp.ID, dw("20260101", 1))
}

// testConcurrentCreateOneWins creates with a repeated ID from many
// goroutines at once: exactly one create wins.
func testConcurrentCreateOneWins(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore, func(o *wardrobe.Options) { o.NewID = func() string { return "same-id" } })
	const n = 8
	race := func(what string, create func(i int) error) {
		t.Helper()
		var (
			wg   sync.WaitGroup
			mu   sync.Mutex
			wins int
		)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := create(i)
				if err != nil && !errors.Is(err, ddbkit.ErrAlreadyExists) {
					t.Errorf("%s: %v", what, err)
				}
				if err == nil {
					mu.Lock()
					wins++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("%d of %d concurrent %s calls with one ID won; want exactly 1", wins, n, what)
		}
	}
	race("CreateWardrobe", func(i int) error {
		_, err := s.CreateWardrobe(ctx(t), wardrobe.NewWardrobe{Name: fmt.Sprint("w", i)})
		return err
	})
	race("AddClothing", func(i int) error {
		_, err := s.AddClothing(ctx(t), "same-id", wardrobe.NewClothing{Name: fmt.Sprint("c", i)})
		return err
	})
	race("AddHistory", func(i int) error {
		d, err := wardrobe.Date("20260101").AddDays(i)
		if err != nil {
			return err
		}
		_, err = s.AddHistory(ctx(t), "same-id", wardrobe.NewHistory{Date: d, ClothingIDs: []string{"same-id"}})
		return err
	})
	c := getClothing(t, s, "same-id", "same-id")
	if hs := allHistory(t, s, "same-id"); len(hs) != 1 || c.WearCount != 1 || c.LastWornAt != day(t, hs[0].Date) {
		t.Fatalf("after racing AddHistory calls: %d histories, clothing %+v; want one history and its wear", len(hs), c)
	}
	wantDaily(t, s, "same-id", wardrobe.KindClothing, c.ID, dw(allHistory(t, s, "same-id")[0].Date, 1))
}
