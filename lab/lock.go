package lab

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// LockFile marks a directory as in use by a running lab; it holds the owner's pid.
const LockFile = "lab.lock"

// lock claims dir for this process: a second lab in the same directory would silently
// rewrite the first one's inventory, key and known_hosts. A lock whose owner is gone is
// taken over.
func lock(dir string) (release func(), err error) {
	path := filepath.Join(dir, LockFile)
	for range 2 {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			_, werr := fmt.Fprintf(f, "%d\n", os.Getpid())
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				os.Remove(path)
				return nil, fmt.Errorf("lab: write %s: %w", path, werr)
			}
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("lab: lock %s: %w", dir, err)
		}
		data, rerr := os.ReadFile(path)
		pid, perr := strconv.Atoi(strings.TrimSpace(string(data)))
		if rerr == nil && perr == nil && alive(pid) {
			return nil, fmt.Errorf("lab: a lab (pid %d) is already running in %s: stop it first, or use another --dir", pid, dir)
		}
		// The owner is gone (or the file is unreadable junk): take the lock over.
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("lab: remove the stale %s: %w", path, err)
		}
	}
	return nil, fmt.Errorf("lab: %s: another lab claimed it at the same time", dir)
}

// alive reports whether a process with pid exists (signal 0 checks without sending).
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
