package main

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// TestAsyncWriter writes pieces of every size across block boundaries and checks
// the destination gets the same bytes in the same order.
func TestAsyncWriter(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	want := make([]byte, 100_000)
	for i := range want {
		want[i] = byte(r.IntN(256))
	}
	var dst bytes.Buffer
	a := newAsyncWriter(&dst, 1000, 2)
	for p := want; len(p) > 0; {
		k := min(len(p), r.IntN(2500))
		if n, err := a.Write(p[:k]); n != k || err != nil {
			t.Fatalf("Write(%d bytes) = %d, %v", k, n, err)
		}
		p = p[k:]
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(dst.Bytes(), want) {
		t.Errorf("destination has %d bytes, not the %d written (or not in order)", dst.Len(), len(want))
	}
}

// failingWriter fails once it has taken limit bytes.
type failingWriter struct{ n, limit int }

var errFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n+len(p) > w.limit {
		return 0, errFull
	}
	w.n += len(p)
	return len(p), nil
}

// TestAsyncWriterError checks that the destination's error reaches the writer:
// from a later Write, and from Close however much was written after it.
func TestAsyncWriterError(t *testing.T) {
	a := newAsyncWriter(&failingWriter{limit: 3000}, 1000, 2)
	block := make([]byte, 1000)
	var werr error
	for range 100 {
		if _, werr = a.Write(block); werr != nil {
			break
		}
	}
	if !errors.Is(werr, errFull) {
		t.Errorf("100 blocks into a writer that takes 3: Write's error is %v, want %v", werr, errFull)
	}
	if err := a.Close(); !errors.Is(err, errFull) {
		t.Errorf("Close = %v, want %v", err, errFull)
	}
}
