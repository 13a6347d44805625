package buildtool

import (
	"context"
	"fmt"
)

func (r *Resolver) resolveGradle(ctx context.Context, req Request) (*Result, error) {
	return nil, fmt.Errorf("gradle: not yet")
}
