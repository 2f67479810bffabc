package livecomment_test

import (
	"testing"

	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/livecomment/livecommenttest"
)

func TestMemoryStore(t *testing.T) {
	livecommenttest.Run(t, func(t *testing.T, opts ...func(*livecomment.Options)) livecomment.Store {
		return livecomment.NewMemoryStore(opts...)
	})
}
