package lab

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestASecondLabInTheSameDirIsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lab")
	first, err := Start(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	inv, _ := os.ReadFile(first.InventoryPath)
	_, err = Start(context.Background(), Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "pid "+strconv.Itoa(os.Getpid())) || !strings.Contains(err.Error(), "already running") {
		t.Fatalf("second lab: %v", err)
	}
	if again, _ := os.ReadFile(first.InventoryPath); string(again) != string(inv) {
		t.Error("the refused lab rewrote the running lab's inventory")
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, LockFile)); !os.IsNotExist(err) {
		t.Errorf("lock left after Close: %v", err)
	}
	second, err := Start(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatalf("after the first stopped: %v", err)
	}
	second.Close()
}

// A lock left by a lab that died (its pid no longer runs) is taken over.
func TestStaleLockIsTakenOver(t *testing.T) {
	dir := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, LockFile), []byte(strconv.Itoa(gone.Process.Pid)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Start(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatalf("stale lock: %v", err)
	}
	defer l.Close()
	data, _ := os.ReadFile(filepath.Join(dir, LockFile))
	if strings.TrimSpace(string(data)) != strconv.Itoa(os.Getpid()) {
		t.Errorf("lock holds %q, want this process", data)
	}
}
