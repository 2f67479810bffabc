package backend

import (
	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/obs"
)

// consumeTx is consume of the TransactWriteItems of ws, described as c
// (txCall). DynamoDB Local prices transactions its own way (it leaves out
// or discounts some of their items), which no rule here reproduces: the
// Op is told that its write units as DynamoDB Local reports them are
// unknown (obs.Op.Transacted), and the capacity tests hold these prices to
// the service's instead.
func (m *Memory) consumeTx(op *obs.Op, c ddbkit.CapacityCall, ws []Write) {
	if op == nil || c.Op == "" {
		return
	}
	for i, w := range c.Writes {
		units := m.writeUnits(w)
		if ws[i].kind == writeCheck {
			units = kbUnits(ddb.ItemSize(w.Old)) // a check writes no index entry
		}
		op.Consumed(w.Table, 0, 2*units)
	}
	op.Transacted()
}

// consume records on op (nil: nothing) the capacity call c consumed, as
// DynamoDB would report it with ReturnConsumedCapacity=TOTAL, once c has
// succeeded: a call that fails (a failed condition, a cancelled
// transaction) reports none on DynamoDB either, though DynamoDB charges
// it.
//
// The prices are DynamoDB's published rules, which ddbtest's partition
// model follows too:
//
//   - a read, 1 unit per 4 KB read, rounded up, half that eventually
//     consistent; a GetItem at least 1 (or 0.5), found or not; a Query
//     the items it evaluated, summed before rounding, 0 for none (as
//     DynamoDB Local reports it: what the service charges an empty
//     Query, AWS does not document); a
//     BatchGetItem each item found as a GetItem, a missing one nothing
//     (as DynamoDB Local reports it);
//   - a write, 1 unit per KB of the larger of the item before and after,
//     rounded up, at least 1; plus, for each GSI, an entry written or
//     deleted priced the same way (a key change: both); twice all of it
//     in a transaction. A ConditionCheck, a write whose condition leaves
//     the item as it was and a write of the item as it was cost the
//     item's size alone, with no index entry.
//
// Besides, it records the write units DynamoDB Local reports, which only
// tests read, to compare the memory store with DynamoDB Local: the same,
// but for a BatchWriteItem delete of nothing, which DynamoDB Local reports
// at 2 units, not 1 (measured on DynamoDB Local 3.3.1); transactions are
// consumeTx's.
func (m *Memory) consume(op *obs.Op, c ddbkit.CapacityCall) {
	if op == nil || c.Op == "" {
		return
	}
	switch c.Op {
	case "GetItem", "BatchGetItem":
		for _, r := range c.Reads {
			if r.Size == 0 && c.Op == "BatchGetItem" {
				continue
			}
			op.Consumed(r.Table, max(readUnits(r.Size, r.Consistent), readUnits(1, r.Consistent)), 0)
		}
	default: // PutItem, UpdateItem, DeleteItem, BatchWriteItem
		for _, w := range c.Writes {
			units := m.writeUnits(w)
			op.Consumed(w.Table, 0, units)
			if c.Op == "BatchWriteItem" && w.Old == nil && w.New == nil {
				units = 2
			}
			op.LocalWrite(units)
		}
	}
}

// readUnits is the read units of reading size bytes.
func readUnits(size int, consistent bool) float64 {
	u := float64((size + 4095) / 4096)
	if !consistent {
		u /= 2
	}
	return u
}

// kbUnits is the write units of writing size bytes: 1 per KB, rounded up,
// at least 1.
func kbUnits(size int) float64 { return float64(max(1, (size+1023)/1024)) }

// writeUnits is w's price outside a transaction: the item's, and each of
// its table's GSI entries it writes or deletes.
func (m *Memory) writeUnits(w ddbkit.CapacityWrite) float64 {
	units := kbUnits(max(ddb.ItemSize(w.Old), ddb.ItemSize(w.New)))
	if ddb.ItemsEqual(w.Old, w.New) {
		return units // a check, or a write that changed nothing: no index entry changes
	}
	mt := m.tables[w.Table]
	if mt == nil {
		return units
	}
	for _, ix := range mt.t.Indexes {
		opk, osk, oin := gsiPos(ix, w.Old)
		npk, nsk, nin := gsiPos(ix, w.New)
		switch {
		case oin && nin && opk == npk && osk == nsk:
			units += kbUnits(max(ddb.ItemSize(w.Old), ddb.ItemSize(w.New)))
		default:
			if oin {
				units += kbUnits(ddb.ItemSize(w.Old))
			}
			if nin {
				units += kbUnits(ddb.ItemSize(w.New))
			}
		}
	}
	return units
}
