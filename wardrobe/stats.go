package wardrobe

import (
	"time"
)

// This file holds what both stores decide the same way about wear
// statistics: which references an outfit may name, and how a history's
// wear changes the counters and caches. The stores only read and write.

// stats are the cached statistics of a clothing or template: wearCount and
// lastWornAt in Unix ms, 0 meaning never worn, and statsVersion, which every
// change of them increments. A read-modify-write is conditional on the
// version it read: the count and the day alone can come back to the values
// it read after other writes (one history deleted, another added), which
// would let a stale recomputed lastWornAt through.
type stats struct {
	count   int
	lastMs  int64
	version int64
}

// worn returns s after one more wear on the day whose midnight is dayMs.
func (s stats) worn(dayMs int64) stats {
	return stats{count: s.count + 1, lastMs: max(s.lastMs, dayMs), version: s.version + 1}
}

// unworn returns s after one wear on dayMs is taken away, given the day's
// counter as read, and whether the last worn day must be looked up again:
// when this was the last wear on the latest day. The count never goes
// below 0.
func (s stats) unworn(dayMs int64, dayCount int) (stats, bool) {
	return stats{count: max(s.count-1, 0), lastMs: s.lastMs, version: s.version + 1}, s.lastMs == dayMs && dayCount <= 1
}

// msTime converts lastWornAt and the like from Unix ms to time.Time, with
// 0 standing for the zero time.
func msTime(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// dayMs is the seed's dateToEpochMs: midnight UTC of a validated date.
func dayMs(d Date) int64 {
	t, _ := d.Time()
	return t.UnixMilli()
}

// wornRef is one item an outfit names: the template or a clothing, with
// the input field that named it, and what a read found.
type wornRef struct {
	field string
	kind  Kind
	id    string

	found    bool
	status   Status
	st       stats
	dayCount int // the counter of the history's day, when read
}

// outfitRefs lists the items a history wears: its template first, if any,
// then its clothes in order. Both stores read, check and update them in
// this order.
func outfitRefs(templateID string, clothingIDs []string) []wornRef {
	refs := make([]wornRef, 0, len(clothingIDs)+1)
	if templateID != "" {
		refs = append(refs, wornRef{field: "TemplateID", kind: KindTemplate, id: templateID})
	}
	for i, id := range clothingIDs {
		refs = append(refs, wornRef{field: clothingField(i), kind: KindClothing, id: id})
	}
	return refs
}

// checkWearable refuses the first reference that is missing or DELETED: a
// new outfit names only ACTIVE items.
func checkWearable(refs []wornRef) error {
	for _, r := range refs {
		if !r.found {
			return errUnknownRef(r.field, r.kind, r.id)
		}
		if r.status != StatusActive {
			return errDeletedRef(r.field, r.kind, r.id)
		}
	}
	return nil
}

// thumbIDs collects the distinct IDs of the first n clothes of each list,
// in order of first appearance: one lookup serves a whole page.
func thumbIDs(lists [][]string, n int) []string {
	var ids []string
	seen := make(map[string]bool)
	for _, l := range lists {
		for _, id := range l[:min(n, len(l))] {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// thumbnails returns the thumbnails of the first n of ids, from the clothes
// found, and how many ids they leave out (the "+x" badge).
func thumbnails(ids []string, n int, found map[string]Thumbnail) ([]Thumbnail, int) {
	shown := ids[:min(n, len(ids))]
	out := make([]Thumbnail, len(shown))
	for i, id := range shown {
		th, ok := found[id]
		if !ok {
			th = Thumbnail{ClothingID: id, Deleted: true}
		}
		out[i] = th
	}
	return out, len(ids) - len(shown)
}

func (w worn) thumbnail() Thumbnail {
	return Thumbnail{ClothingID: w.id, Name: w.name, ImageKey: w.imageKey, Deleted: w.status == StatusDeleted}
}

// truth is what the daily counters, the source of truth, say the
// statistics are: the sum of the counts and the latest day with a wear.
// Counters at 0 or below (which no write leaves) count for nothing.
func truth(counters []DailyWear) stats {
	var st stats
	for _, c := range counters {
		if c.Count > 0 {
			st.count += c.Count
			st.lastMs = max(st.lastMs, dayMs(c.Date))
		}
	}
	return st
}

// recalculated returns what w's statistics must become after its
// counters, and the drift it had, if any.
func (w worn) recalculated(counters []DailyWear) (stats, Drift, bool) {
	st := truth(counters)
	st.version = w.st.version + 1
	return st, Drift{Kind: w.kind, ID: w.id, WearCountWas: w.st.count, WearCount: st.count,
		LastWornAtWas: msTime(w.st.lastMs), LastWornAt: msTime(st.lastMs)}, w.st.count != st.count || w.st.lastMs != st.lastMs
}
