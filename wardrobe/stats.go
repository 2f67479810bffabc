package wardrobe

import "github.com/ddbkit/ddbkit/internal/ddb"

// This file holds what both stores decide the same way about wear
// statistics: which references an outfit may name, and how a history's
// wear changes the counters and caches. The stores only read and write.

// stats are the cached statistics of a clothing or template: wearCount and
// lastWornAt in Unix ms, 0 meaning never worn, and statsVersion, which every
// change of them by this package increments. A read-modify-write is
// conditional on all three as it read them: on the count and the day,
// which another writer of the table changes without knowing statsVersion;
// and on the version, because the count and the day alone can come back to
// the values it read after other writes (one history deleted, another
// added), which would let a stale recomputed lastWornAt through.
type stats struct {
	count   int
	lastMs  int64
	version int64
}

// worn returns s after one more wear on day d. Days are compared in the
// store's zone, so a lastWornAt another writer stamped at another instant
// of the same day stays as it is.
func (o Options) worn(s stats, d Date) stats {
	last := s.lastMs
	if o.dateOf(last) < d { // "" (never worn) sorts first
		last = o.dayMs(d)
	}
	return stats{count: s.count + 1, lastMs: last, version: s.version + 1}
}

// unworn returns s after one wear on day d is taken away, given the day's
// counter as read, and whether the last worn day must be looked up again:
// when this was the last wear of the latest day. The count never goes
// below 0.
func (o Options) unworn(s stats, d Date, dayCount int) (stats, bool) {
	return stats{count: max(s.count-1, 0), lastMs: s.lastMs, version: s.version + 1},
		o.dateOf(s.lastMs) == d && dayCount <= 1
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

	// What the read found, to condition the writes on: the item and the
	// day's counter (nil if missing).
	raw, dayRaw ddb.Item
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
// Counters at 0 or below (which no write of this package leaves) count for
// nothing.
func truth(counters []DailyWear) (count int, latest Date) {
	for _, c := range counters {
		if c.Count > 0 {
			count += c.Count
			latest = max(latest, c.Date)
		}
	}
	return count, latest
}

// recalculated returns what w's statistics must become after its
// counters, and the drift it had, if any. The last worn day is compared by
// calendar day in the store's zone, never by exact ms: a lastWornAt on the
// right day is kept as it is, whatever instant of the day it holds.
func (o Options) recalculated(w worn, counters []DailyWear) (stats, Drift, bool) {
	count, latest := truth(counters)
	was := o.dateOf(w.st.lastMs)
	st := stats{count: count, lastMs: w.st.lastMs, version: w.st.version + 1}
	switch {
	case was == latest:
	case latest == "":
		st.lastMs = 0
	default:
		st.lastMs = o.dayMs(latest)
	}
	return st, Drift{Kind: w.kind, ID: w.id, WearCountWas: w.st.count, WearCount: count,
		LastWornAtWas: was, LastWornAt: latest}, w.st.count != count || was != latest
}
