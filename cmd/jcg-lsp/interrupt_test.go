package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCancelOnInterrupt checks the two Ctrl-Cs on a command that ignores its context
// (as a blocking system call would): the first cancels the context and, when the
// command does not return, ends the process after the grace period; a second ends it
// at once.
func TestCancelOnInterrupt(t *testing.T) {
	t.Run("first cancels, grace ends", func(t *testing.T) {
		sigs := make(chan os.Signal, 2)
		exits := make(chan int, 1)
		ctx, stop := cancelOnInterrupt(context.Background(), sigs, 50*time.Millisecond, io.Discard, func(c int) { exits <- c })
		defer stop()
		sigs <- os.Interrupt
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("the first interrupt did not cancel the context")
		}
		select {
		case c := <-exits:
			if c != exitInterrupted {
				t.Errorf("exit code %d, want %d", c, exitInterrupted)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a command that ignores its context was not ended after the grace period")
		}
	})
	t.Run("second ends at once", func(t *testing.T) {
		sigs := make(chan os.Signal, 2)
		exits := make(chan int, 1)
		ctx, stop := cancelOnInterrupt(context.Background(), sigs, time.Hour, io.Discard, func(c int) { exits <- c })
		defer stop()
		sigs <- os.Interrupt
		<-ctx.Done()
		sigs <- os.Interrupt
		select {
		case c := <-exits:
			if c != exitInterrupted {
				t.Errorf("exit code %d, want %d", c, exitInterrupted)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the second interrupt did not end the process")
		}
	})
	t.Run("no signal", func(t *testing.T) {
		sigs := make(chan os.Signal, 2)
		ctx, stop := cancelOnInterrupt(context.Background(), sigs, time.Millisecond, io.Discard, func(int) { t.Error("exit without a signal") })
		if stop() {
			t.Error("stop reports an interrupt that never came")
		}
		if ctx.Err() == nil {
			t.Error("stop leaves the context live")
		}
		sigs <- os.Interrupt // after stop: ignored
		time.Sleep(20 * time.Millisecond)
	})
}

// TestInterruptAnalyze sends SIGINT to a real `analyze` of the example with the JDK
// while it works: it must end soon with status 130 and say "interrupted" once, not
// print a "context canceled" per level.
func TestInterruptAnalyze(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the JDK")
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "JCG_LSP_RUN_MAIN=1", "JCG_LSP_ARGS=analyze "+exampleJar)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Skipf("analyze ended before it could be interrupted: %v", err)
	case <-time.After(1500 * time.Millisecond):
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("analyze still runs 30 s after SIGINT\n%s", stderr.String())
	}
	t.Logf("ended %v after SIGINT", time.Since(sent).Round(time.Millisecond))
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Errorf("exit: %v, want status %d\n%s", err, exitInterrupted, stderr.String())
	}
	if got := stderr.String(); strings.Count(got, "interrupted") != 1 || strings.Contains(got, "context canceled") {
		t.Errorf("stderr should say interrupted once:\n%s", got)
	}
}
