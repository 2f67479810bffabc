package difftest

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/ddbkit/ddbkit/internal/obs"
)

// spans is what the store methods of one operation reported (package
// obs), in the order they ended: every Run.Ctx carries a hook that
// records them, so that compare can hold the two stores to the same
// telemetry, span for span.
type spans struct {
	mu   sync.Mutex
	list []span
}

type span struct {
	name string
	s    obs.Summary
}

func (l *spans) record(name string, s obs.Summary) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.list = append(l.list, span{name, s})
}

// take returns what was recorded since the last take.
func (l *spans) take() []span {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.list
	l.list = nil
	return out
}

// hooked is ctx under p's telemetry hook.
func (l *spans) hooked(ctx context.Context) context.Context { return obs.WithHook(ctx, l.record) }

// telemetryDiff says how the memory store's spans differ from the DynamoDB
// store's: another method, another number of calls, other capacity. The
// memory store's write units are compared as DynamoDB Local reports them
// (obs.Summary.Local), since DynamoDB Local prices batch deletes otherwise
// than the service, which the memory store reports; and not at all for a
// method that committed a transaction, which DynamoDB Local prices its own
// way (the capacity tests hold those to the service's prices).
func telemetryDiff(mem, dyn []span) string {
	if len(mem) != len(dyn) {
		return fmt.Sprintf("telemetry: memory ended %d spans %v, dynamo %d %v", len(mem), names(mem), len(dyn), names(dyn))
	}
	for i := range mem {
		m, d := mem[i], dyn[i]
		switch {
		case m.name != d.name:
			return fmt.Sprintf("telemetry: span %d: memory %s, dynamo %s", i, m.name, d.name)
		case m.s.Calls != d.s.Calls || m.s.Attempts != d.s.Attempts:
			return fmt.Sprintf("telemetry: %s: DynamoDB calls (attempts): memory %d (%d), dynamo %d (%d)", m.name, m.s.Calls, m.s.Attempts, d.s.Calls, d.s.Attempts)
		case math.Abs(m.s.Read-d.s.Read) > 1e-9:
			return fmt.Sprintf("telemetry: %s: read units: memory %v, dynamo %v", m.name, m.s.Read, d.s.Read)
		case !m.s.Transacted && math.Abs(m.s.Local-d.s.Write) > 1e-9:
			return fmt.Sprintf("telemetry: %s: write units: memory %v (%v as DynamoDB Local reports them), dynamo %v", m.name, m.s.Write, m.s.Local, d.s.Write)
		case m.s.Evaluated != d.s.Evaluated:
			return fmt.Sprintf("telemetry: %s: items evaluated: memory %d, dynamo %d", m.name, m.s.Evaluated, d.s.Evaluated)
		}
	}
	return ""
}

func names(l []span) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = s.name
	}
	return out
}
