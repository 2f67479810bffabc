package ddbkit

// RepairReport is what a Recalculate method of a store checked, repaired
// and skipped: the one shape every domain's repairs report in (wardrobe's
// StatsReport, kondate's PopularityReport; taskmgmt's CounterReport, which
// repairs one counter, carries the same Checked and Skipped).
//
// As in Page.Skipped, an item a repair cannot read is left as it is and
// reported, never dropped without a word: a repair that skipped items has
// not checked the whole, and a caller that needs it whole repairs the items
// in Skipped first.
type RepairReport[D any] struct {
	// Checked is the number of items the repair read and decoded.
	Checked int
	// Drifts are the items whose stored value differed from what the
	// repair counted, as it found and repaired them, in the order the
	// method documents.
	Drifts []D
	// Skipped holds one error per item the repair could not decode, each
	// matching ErrCorruptItem and naming the item's key. Such an item is
	// neither checked nor repaired.
	Skipped []error
}
