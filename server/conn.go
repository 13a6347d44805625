package server

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// A route is one LSP method the server answers. Parameters are decoded on the read
// loop (so a malformed request is answered at once and in order), then requests run
// concurrently and notifications run in order on the read loop.
type route struct {
	notification bool
	decode       func(raw []byte) (any, error)
	run          func(ctx context.Context, params any) (any, error)
}

// request makes the route of a request whose parameters decode into P.
func request[P any](fn func(ctx context.Context, p *P) (any, error)) route {
	return route{
		decode: decoder[P](),
		run:    func(ctx context.Context, p any) (any, error) { return fn(ctx, p.(*P)) },
	}
}

// notification makes the route of a notification whose parameters decode into P.
func notification[P any](fn func(ctx context.Context, p *P) error) route {
	return route{
		notification: true,
		decode:       decoder[P](),
		run:          func(ctx context.Context, p any) (any, error) { return nil, fn(ctx, p.(*P)) },
	}
}

func decoder[P any]() func(raw []byte) (any, error) {
	return func(raw []byte) (any, error) {
		p := new(P)
		if s := strings.TrimSpace(string(raw)); s == "" || s == "null" {
			return p, nil
		}
		if err := protocol.Unmarshal(raw, p); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
		}
		return p, nil
	}
}

// errNotInitialized and errShutdown answer requests outside the running state.
var (
	errNotInitialized = jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "server not initialized")
	errShutdown       = jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shutting down")
)

// handler returns the connection's handler chain:
//
//   - $/cancelRequest is handled inline, ahead of anything read after it, and
//     cancels the context of the request it names;
//   - notifications run inline on the read loop, so they are handled in wire order
//     (didChange before didSave); their errors and panics are logged, never
//     returned, because a notification error closes a go.lsp.dev connection;
//   - requests are decoded inline, then released with jsonrpc2.Async and run
//     concurrently; a panic becomes an InternalError reply and the server goes on.
//
// Handlers must not call the client and wait inline (that deadlocks the read loop):
// server-to-client calls are made from goroutines or from released requests.
//
// Cancellation is not jsonrpc2.CancelHandler's: that wraps every request's context
// in context.WithCancel before the handler runs, and a request answered without
// being released (an invalid one) is recycled while the goroutine that the wrapping
// started may still read its context, which panics. Here a request's context is
// wrapped only once it is released.
func (s *Server) handler() jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() == protocol.MethodCancelRequest {
			if req.IsCall() {
				return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "%s is a notification", protocol.MethodCancelRequest)
			}
			var p protocol.CancelParams
			if err := protocol.Unmarshal(req.Params(), &p); err != nil {
				s.log.Warn("malformed $/cancelRequest", zap.Error(err))
				return nil, nil
			}
			switch id := p.ID.(type) {
			case protocol.Integer:
				s.inflight.cancel(jsonrpc2.NewNumberID(int64(id)))
			case protocol.String:
				s.inflight.cancel(jsonrpc2.NewStringID(string(id)))
			}
			return nil, nil
		}
		return s.dispatch(ctx, req)
	}
}

// inflight tracks the requests being handled, for $/cancelRequest.
type inflight struct {
	mu sync.Mutex
	m  map[jsonrpc2.ID]*pending
}

type pending struct {
	cancel    context.CancelFunc // nil until the request runs
	cancelled bool
}

// add registers a request before it is released, so that a cancellation read right
// after it finds it.
func (f *inflight) add(id jsonrpc2.ID) *pending {
	p := &pending{}
	f.mu.Lock()
	if f.m == nil {
		f.m = map[jsonrpc2.ID]*pending{}
	}
	f.m[id] = p
	f.mu.Unlock()
	return p
}

// start attaches the request's cancel function, cancelling at once when the
// cancellation came first.
func (f *inflight) start(p *pending, cancel context.CancelFunc) {
	f.mu.Lock()
	p.cancel = cancel
	done := p.cancelled
	f.mu.Unlock()
	if done {
		cancel()
	}
}

func (f *inflight) remove(id jsonrpc2.ID) {
	f.mu.Lock()
	delete(f.m, id)
	f.mu.Unlock()
}

func (f *inflight) cancel(id jsonrpc2.ID) {
	f.mu.Lock()
	p := f.m[id]
	var cancel context.CancelFunc
	if p != nil {
		p.cancelled = true
		cancel = p.cancel
	}
	f.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (s *Server) dispatch(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	method := strings.Clone(req.Method())
	r, ok := s.routes[method]
	if !req.IsCall() {
		s.runNotification(ctx, method, r, ok, req.Params())
		return nil, nil
	}
	if !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", method)
	}
	if r.notification {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "%s is a notification, not a request", method)
	}
	if err := s.checkState(method); err != nil {
		return nil, err
	}
	params, err := r.decode(req.Params())
	if err != nil {
		return nil, err
	}
	id := req.ID()
	if sv, ok := id.StringValue(); ok {
		id = jsonrpc2.NewStringID(strings.Clone(sv))
	}
	p := s.inflight.add(id)
	defer s.inflight.remove(id)
	jsonrpc2.Async(ctx)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.inflight.start(p, cancel)
	return s.runRequest(ctx, method, r, params)
}

func (s *Server) runRequest(ctx context.Context, method string, r route, params any) (result any, err error) {
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic in request handler", zap.String("method", method), zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
			result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", method, p)
		}
		if ctx.Err() != nil && err == nil {
			result, err = nil, protocol.ErrRequestCancelled
		}
		if ce := s.log.Check(zap.DebugLevel, "request"); ce != nil {
			ce.Write(zap.String("method", method), zap.Duration("took", time.Since(start)), zap.Error(err))
		}
	}()
	result, err = r.run(ctx, params)
	if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		err = protocol.ErrRequestCancelled
	}
	return result, err
}

func (s *Server) runNotification(ctx context.Context, method string, r route, ok bool, raw []byte) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic in notification handler", zap.String("method", method), zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
		}
	}()
	if !ok {
		if !strings.HasPrefix(method, "$/") {
			s.log.Debug("unhandled notification", zap.String("method", method))
		}
		return
	}
	if !r.notification {
		s.log.Warn("request sent as a notification", zap.String("method", method))
		return
	}
	if method != protocol.MethodExit && !s.running() {
		s.log.Debug("notification outside the running state", zap.String("method", method))
		return
	}
	params, err := r.decode(raw)
	if err != nil {
		s.log.Warn("malformed notification", zap.String("method", method), zap.Error(err))
		return
	}
	if _, err := r.run(ctx, params); err != nil {
		s.log.Warn("notification failed", zap.String("method", method), zap.Error(err))
	}
}

// bug records a broken invariant: logged in production, a panic in tests (which set
// panicOnBugs), so the server keeps serving but tests cannot overlook it.
func (s *Server) bug(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if panicOnBugs {
		panic("jcg-lsp bug: " + msg)
	}
	s.log.Error("bug: " + msg)
}

var panicOnBugs = false
