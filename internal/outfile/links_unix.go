package outfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
)

// hardLinked reports whether a regular file has other names.
func hardLinked(st fs.FileInfo) bool {
	s, ok := st.Sys().(*syscall.Stat_t)
	return ok && s.Nlink > 1
}

// procFDDir is a process's (or one of its threads') descriptor folder.
var procFDDir = regexp.MustCompile(`^/proc/([0-9]+)(?:/task/[0-9]+)?/fd$`)

// procFD says whether p is a descriptor link under /proc (/dev/stdout and /dev/fd/N lead
// there on Linux), which descriptor, and whether it is this process's.
func procFD(p string) (fd int, own, ok bool) {
	fd, err := strconv.Atoi(filepath.Base(p))
	if err != nil || fd < 0 {
		return 0, false, false
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return 0, false, false
	}
	m := procFDDir.FindStringSubmatch(dir)
	if m == nil {
		return 0, false, false
	}
	return fd, m[1] == strconv.Itoa(os.Getpid()), true
}

// checkFDWritable says whether this process's descriptor fd was opened for writing.
func checkFDWritable(name string, fd int) error {
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	if errno != 0 {
		return fmt.Errorf("%s: descriptor %d: %w", name, fd, errno)
	}
	if flags&syscall.O_ACCMODE == syscall.O_RDONLY {
		return fmt.Errorf("%s: descriptor %d is open for reading only", name, fd)
	}
	return nil
}

// dupFD duplicates fd (sharing its file offset), close-on-exec as Go's own descriptors.
func dupFD(fd int, name string) (*os.File, error) {
	syscall.ForkLock.RLock()
	nfd, err := syscall.Dup(fd)
	if err == nil {
		syscall.CloseOnExec(nfd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(nfd), name), nil
}

// accessWrite says whether the process may write file (a device or FIFO: opening one to
// find out could block or be seen by its reader).
func accessWrite(file string) error {
	return syscall.Access(file, 2) // W_OK
}

// keepOwner gives f the owner and group of the file it replaces, as far as the process may
// (anyone may keep their own file's group if they belong to it; only root may give a file
// to another user): failing is not an error, the file is then the writer's, as a new one.
func keepOwner(f *os.File, old fs.FileInfo) {
	s, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	if f.Chown(int(s.Uid), int(s.Gid)) != nil {
		_ = f.Chown(-1, int(s.Gid))
	}
}
