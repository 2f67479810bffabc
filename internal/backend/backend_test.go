package backend_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/backend/backendtest"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// clock is a settable clock that counts its reads.
type clock struct {
	mu    sync.Mutex
	now   time.Time
	reads int
}

func (c *clock) read() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads++
	return c.now
}

// peek reads the time without counting: the token window's clock, which
// the suite moves with the backend's but which is not the store's clock.
func (c *clock) peek() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads
}

func (c *clock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// countOnly, as an Emulation's Retry.Attempts, asks memoryHarness for a
// throttle that only counts calls.
const countOnly = -1

func memoryHarness(t *testing.T, e *backend.Emulation) backendtest.Harness {
	main, other, ttl := backendtest.Schema()
	tables := []backend.Table{main, other, ttl}
	c := &clock{now: time.Now()}
	m := backend.NewMemory(c.read, tables...)
	m.SetTokenClock(c.peek)
	var lag time.Duration
	throttles := false
	var calls func() int
	if e != nil {
		m.Emulate(*e)
		_, admits := e.Capacity.(admitAll)
		lag, throttles = e.GSILag, e.Throttle != nil || (e.Capacity != nil && !admits)
	}
	if e != nil && e.Throttle != nil && e.Retry.Attempts == countOnly {
		// A throttle that never throttles counts the calls.
		var n atomic.Int64
		m.Emulate(backend.Emulation{Throttle: func(call int) bool { n.Store(int64(call)); return false }})
		throttles, calls = false, func() int { return int(n.Load()) }
	}
	items := func(m *backend.Memory) func(*testing.T, ddb.Table) []ddb.Item {
		return func(_ *testing.T, t ddb.Table) []ddb.Item { return m.Export(t.Name) }
	}
	h := backendtest.Harness{
		Backend: m, Main: main, Other: other, TTL: ttl,
		Items:    items(m),
		SetClock: c.set,
		Reload: func(t *testing.T) backendtest.Copy {
			cp := backend.NewMemory(c.read, tables...)
			cp.SetTokenClock(c.peek)
			for _, tb := range tables {
				if err := cp.Import(tb.Name, m.Export(tb.Name)); err != nil {
					t.Fatalf("Import(%s): %v", tb.Name, err)
				}
			}
			return backendtest.Copy{Backend: cp, Items: items(cp)}
		},
		TokenWindow: memtable.TokenWindow,
		GSILag:      lag,
		Throttles:   throttles,
		Calls:       calls,
	}
	if e == nil {
		h.ClockReads = c.count
	}
	return h
}

func TestMemory(t *testing.T) {
	backendtest.Run(t, func(t *testing.T) backendtest.Harness { return memoryHarness(t, nil) })
}

func dynamoHarness(t *testing.T) backendtest.Harness {
	client := ddbtest.Client(t)
	main, other, ttl := backendtest.Schema()
	var tables []backend.Table
	for _, tb := range []*backend.Table{&main, &other, &ttl} {
		tb.Name = ddbtest.NewTable(t, client, backendtest.CreateTableInput(*tb))
		tables = append(tables, *tb)
	}
	c := &clock{now: time.Now()}
	counting := ddbtest.NewCountingClient(client)
	return backendtest.Harness{
		Backend: backend.NewDynamo(counting, ddb.DefaultBackoff, c.read, tables...),
		Calls: func() int {
			n := 0
			for _, c := range counting.Counts() {
				n += c
			}
			return n
		},
		Main: main, Other: other, TTL: ttl,
		Items: func(t *testing.T, tb ddb.Table) []ddb.Item {
			var items []ddb.Item
			p := dynamodb.NewScanPaginator(client, &dynamodb.ScanInput{TableName: aws.String(tb.Name), ConsistentRead: aws.Bool(true)})
			for p.HasMorePages() {
				out, err := p.NextPage(t.Context())
				if err != nil {
					t.Fatalf("Scan(%s): %v", tb.Name, err)
				}
				items = append(items, out.Items...)
			}
			return items
		},
		SetClock:   c.set,
		ClockReads: c.count,
	}
}

func TestDynamo(t *testing.T) {
	backendtest.Run(t, dynamoHarness)
}
