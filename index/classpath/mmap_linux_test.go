package classpath

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestDropPages reads every class of the JDK image, so that its pages are resident,
// drops them, and checks that they left the resident set and that the classes read
// the same afterwards.
func TestDropPages(t *testing.T) {
	requireDir(t, jdk17)
	cp := mustOpen(t, Config{JDKHome: jdk17})
	if len(cp.mappings) == 0 {
		t.Fatal("the JDK image is not mapped")
	}
	var sum byte
	var size int
	for _, c := range cp.Classes {
		for _, b := range c.Data {
			sum += b
		}
		size += len(c.Data)
	}
	before := rssFileKiB(t)
	if err := cp.DropPages(); err != nil {
		t.Fatal(err)
	}
	after := rssFileKiB(t)
	// The classes are most of the image; at least half their size must leave.
	if before-after < int64(size/1024/2) {
		t.Errorf("resident file pages %d KiB before DropPages, %d KiB after, for %d KiB of classes read", before, after, size/1024)
	}
	var again byte
	for _, c := range cp.Classes {
		for _, b := range c.Data {
			again += b
		}
	}
	if again != sum {
		t.Error("the classes read differently after DropPages")
	}
	obj := cp.Lookup("java/lang/Object")
	if obj == nil || !bytes.HasPrefix(obj.Data, []byte{0xCA, 0xFE, 0xBA, 0xBE}) {
		t.Error("java/lang/Object is not a class file after DropPages")
	}
}

// rssFileKiB returns the process's resident file-backed memory (RssFile).
func rssFileKiB(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "RssFile:"); ok {
			var kib int64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kib); err != nil {
				t.Fatalf("RssFile: %v", err)
			}
			return kib
		}
	}
	t.Skip("no RssFile in /proc/self/status")
	return 0
}
