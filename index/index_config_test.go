package index

import (
	"context"
	"sync"
	"testing"
)

// TestConfig: the configuration is read once, whoever asks first, and is the JDK's.
func TestConfig(t *testing.T) {
	ix, err := Build(context.Background(), jdkConfig(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var wg sync.WaitGroup
	got := make(chan any, 4)
	for range 4 {
		wg.Go(func() { got <- ix.Config() })
	}
	wg.Wait()
	close(got)
	first := ix.Config()
	for c := range got {
		if c != first {
			t.Fatal("Config read more than once")
		}
	}
	found := false
	for _, p := range first.Providers("java/nio/file/spi/FileSystemProvider") {
		found = found || p.Class == "jdk/nio/zipfs/ZipFileSystemProvider"
	}
	if !found || len(first.SecurityProviders()) == 0 {
		t.Errorf("JDK configuration not read: zipfs provider %v, %d security providers (warnings %v)",
			found, len(first.SecurityProviders()), first.Warnings())
	}
}
