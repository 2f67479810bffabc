package taskmgmt

import (
	"strconv"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The board (access patterns 7 to 15): which index, partition and sort
// key range a BoardQuery reads.

// board is what a valid BoardQuery selects, its tag filter aside.
type board struct {
	statuses statusSet
	sort     Sort
	overdue  bool
}

// statusSet is a set of statuses: bit i stands for Statuses[i].
type statusSet uint8

const allStatuses statusSet = 1<<3 - 1 // todo, doing, done

func (set statusSet) has(i int) bool { return set&(1<<i) != 0 }

func setOf(ss ...Status) statusSet {
	var set statusSet
	for i, st := range Statuses {
		for _, s := range ss {
			if s == st {
				set |= 1 << i
			}
		}
	}
	return set
}

// views are the seed's named boards, each the board it is a shorthand
// for: so a view reads the index its explicit form reads, and their
// cursors are the same.
var views = map[View]board{
	ViewInitial:      {setOf(StatusTodo, StatusDoing), SortStart, false},
	ViewTodo:         {setOf(StatusTodo), SortStart, false},
	ViewAll:          {allStatuses, SortStart, false},
	ViewStartOverdue: {setOf(StatusTodo), SortStart, true},
	ViewEndOverdue:   {setOf(StatusTodo, StatusDoing), SortEnd, true},
}

// boardOf returns the board of q, which validateBoard accepted.
func boardOf(q BoardQuery) board {
	if q.View != "" {
		return views[q.View]
	}
	b := board{statuses: setOf(q.Statuses...), sort: q.Sort, overdue: q.Overdue}
	if b.sort == "" {
		b.sort = SortStart
	}
	return b
}

// boardIndexes are the status indexes by sort: the All index (partition
// PK), then those of status_group1 to status_group3.
var boardIndexes = map[Sort][4]ddb.Index{
	SortStart: {indexStartAll, indexStartGroup1, indexStartGroup2, indexStartGroup3},
	SortEnd:   {indexEndAll, indexEndGroup1, indexEndGroup2, indexEndGroup3},
}

// keyQuery is the KeyQuery of b on today: the partition of the one index
// whose partitions hold exactly b's statuses, narrowed to the dates before
// today when b is overdue. A task without b's date has no sort key in the
// index, so it is in no board sorted by that date.
func (b board) keyQuery(t ddb.Table, teamID string, today Date) ddb.KeyQuery {
	ix := boardIndexes[b.sort]
	k := ddb.KeyQuery{Table: t, Index: ix[0], PartitionValue: teamPK(teamID)}
	if b.statuses != allStatuses {
		g, pv := b.statuses.group(teamID)
		k.Index, k.PartitionValue = ix[1+g], pv
	}
	if b.overdue {
		before := startSK(today)
		if b.sort == SortEnd {
			before = endSK(today)
		}
		k.Sort = ddb.SortLT(before)
	}
	return k
}

// group returns the grouping (0 to 2: status_group1 to 3) that has a group
// of exactly set's statuses, and that group's partition value. It derives
// them from groups, which writes every task's group keys, so that a board
// reads the partition its tasks were written to; the seed's three
// groupings have such a group for each of the six sets short of all.
func (set statusSet) group(teamID string) (int, string) {
	var gs [3][3]string // by status, by grouping
	first := -1
	for i, st := range Statuses {
		gs[i] = groups(teamID, st)
		if first < 0 && set.has(i) {
			first = i
		}
	}
	for g := range 3 {
		pv, exact := gs[first][g], true
		for i := range Statuses {
			exact = exact && (gs[i][g] == pv) == set.has(i)
		}
		if exact {
			return g, pv
		}
	}
	panic("taskmgmt: no status group holds exactly the statuses " + strconv.Itoa(int(set)))
}
