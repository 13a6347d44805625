package server

import (
	"context"
	"errors"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// lspCodec marshals payloads with protocol.Marshal/Unmarshal: the default jsonrpc2
// codec (plain encoding/json/v2) mishandles the protocol's sealed-interface unions,
// and protocol's own codec is unexported.
type lspCodec struct{}

func (lspCodec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case *jsonrpc2.RawMessage:
		if m == nil || *m == nil {
			return []byte("null"), nil
		}
		return *m, nil
	}
	return protocol.Marshal(v)
}

func (lspCodec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// tolerantStream answers a frame that is not a JSON-RPC message (bad JSON, an object
// without a method or result) with an error response, then reads on: a
// go.lsp.dev/jsonrpc2 connection ends at the first such frame. Framing errors (a bad
// Content-Length header) still end it, because the next frame cannot be found.
type tolerantStream struct {
	jsonrpc2.Stream
	log *zap.Logger
}

func (s *tolerantStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		msg, n, err := s.Stream.Read(ctx)
		var re *jsonrpc2.Error
		if err == nil || !errors.As(err, &re) || (re.Code != jsonrpc2.ParseError && re.Code != jsonrpc2.InvalidRequest) {
			return msg, n, err
		}
		s.log.Warn("malformed message", zap.Error(err))
		if _, werr := s.Stream.Write(ctx, jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, re)); werr != nil {
			return nil, 0, werr
		}
	}
}
