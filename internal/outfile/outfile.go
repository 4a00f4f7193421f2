// Package outfile writes the files a user names on the command line (reports, snapshots)
// without damaging what is there: a name for one of this process's descriptors (/dev/stdout,
// /dev/fd/N, /proc/self/fd/N) is written through that descriptor, after what it already holds,
// whether it is a pipe, a terminal or a file; a symlink is written through to its target
// (never replaced by a regular file); a device or FIFO (a named pipe) or a hard-linked file is
// written to as it is; and only a regular file, or a new one, is replaced atomically, so that
// a reader never sees half a report. A replaced file keeps its mode and, where the process may
// set them, its owner and group. What is written in place is produced into a spool file
// first: a failed write leaves a hard-linked file as it was and gives a pipe's reader nothing
// rather than a partial report.
package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// maxLinks bounds symlink chains, as the kernel does (ELOOP).
const maxLinks = 40

// Target is what writing to a path would really write to, found without writing anything.
type Target struct {
	Path string // as the user named it
	file string // after following symlinks; may not exist yet
	// fd >= 0 when the path names one of this process's open descriptors: it is written
	// through a duplicate of it, so that it continues where the process's own output stands.
	fd int
	// proc is a descriptor of another process (/proc/PID/fd/N): its link text is no file
	// name (pipe:[N], "... (deleted)"), so it is opened by its /proc name, never renamed over.
	proc bool
	info fs.FileInfo // nil when the file does not exist yet
}

// Resolve follows path's symlinks to the file that would really be written, which may not
// exist yet (a dangling link names the file to create).
func Resolve(path string) (Target, error) {
	t := Target{Path: path, fd: -1}
	p := path
	for range maxLinks {
		if fd, own, ok := procFD(p); ok {
			st, err := os.Stat(p) // the kernel follows a descriptor's link to what it is open on
			if err != nil {
				if own && errors.Is(err, fs.ErrNotExist) {
					return t, fmt.Errorf("%s: descriptor %d is not open", path, fd)
				}
				return t, err
			}
			t.file, t.info = p, st
			if own {
				t.fd = fd
			} else {
				t.proc = true
			}
			return t, nil
		}
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			t.file = p
			return t, nil
		}
		if err != nil {
			return t, err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			t.file, t.info = p, st
			return t, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return t, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return t, fmt.Errorf("%s: too many levels of symbolic links", path)
}

// Overwrites says whether writing the target replaces what it holds (a regular file, or one
// yet to be created), as against a stream (a descriptor, pipe, terminal or device) that is
// only added to: two outputs may share a stream, never a file.
func (t Target) Overwrites() bool {
	return t.fd < 0 && (t.info == nil || t.info.Mode().IsRegular())
}

// Same says whether t and o are one file: the same inode where both exist (hard links and
// symlinks included), else the same path once symlinks in its folder are followed.
func (t Target) Same(o Target) bool {
	switch {
	case t.info != nil && o.info != nil:
		return os.SameFile(t.info, o.info)
	case t.info == nil && o.info == nil:
		return canonical(t.file) == canonical(o.file)
	}
	return false
}

// canonical is a path to a file that may not exist, absolute and with its folder's symlinks
// followed.
func canonical(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

// Check says whether path can be written, before anything expensive is done (see
// Target.Check).
func Check(path string) error {
	t, err := Resolve(path)
	if err != nil {
		return err
	}
	return t.Check()
}

// Check says, as far as can be told without changing anything the user has, whether the
// target can be written: it is not a folder, a descriptor is open for writing, a device or
// FIFO grants write access, and a new or replaced file's folder takes a new file (tried with
// a temporary file that is removed at once: permissions alone do not tell, a read-only
// mount or /proc do not say so, and root passes every permission check).
func (t Target) Check() error {
	switch {
	case t.info != nil && t.info.IsDir():
		return fmt.Errorf("%s is a folder, not a file", t.Path)
	case t.fd >= 0:
		return checkFDWritable(t.Path, t.fd)
	case t.info != nil && !t.info.Mode().IsRegular():
		if err := accessWrite(t.file); err != nil {
			return fmt.Errorf("%s cannot be written: %w", t.Path, err)
		}
		return nil
	case t.info != nil && (t.proc || hardLinked(t.info)):
		return openable(t.file)
	case t.info != nil:
		if err := probe(t.file); err != nil {
			// The file is then written in place, if it can be opened for writing.
			if oerr := openable(t.file); oerr != nil {
				return fmt.Errorf("%s cannot be replaced (%w) nor written in place (%w)", t.Path, err, oerr)
			}
		}
		return nil
	}
	dir := filepath.Dir(t.file)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("folder %s does not exist", dir)
	}
	if err := probe(t.file); err != nil {
		return fmt.Errorf("cannot create a file in folder %s: %w", dir, err)
	}
	return nil
}

// probe creates and removes the temporary file writeAtomic would create for target.
func probe(target string) error {
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// openable opens an existing file for writing, without truncating it, and closes it.
func openable(file string) error {
	f, err := os.OpenFile(file, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	return f.Close()
}

// Write puts data at path with perm (for a file it creates).
func Write(path string, data []byte, perm os.FileMode) error {
	return WriteFunc(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc is Write for content too large to hold in memory: write streams it to the file
// (buffered), with the same care for what is there.
func WriteFunc(path string, perm os.FileMode, write func(io.Writer) error) error {
	t, err := Resolve(path)
	if err != nil {
		return err
	}
	return t.WriteFunc(perm, write)
}

// WriteFunc writes the target as the package's comment says; perm is a new file's mode.
func (t Target) WriteFunc(perm os.FileMode, write func(io.Writer) error) error {
	switch {
	case t.info != nil && t.info.IsDir():
		return fmt.Errorf("%s is a folder, not a file", t.Path)
	case t.fd >= 0:
		return writeFD(t.Path, t.fd, write)
	case t.info != nil && !t.info.Mode().IsRegular():
		// A device, FIFO or socket: write to it, never replace it. It is opened before the
		// content is produced, as a reader waiting on a FIFO expects, and closed empty if
		// producing fails, so that reader sees an end rather than waiting forever.
		return writeInPlace(t.file, write, 0, true)
	case t.info != nil && (t.proc || hardLinked(t.info)):
		// Renaming would split the links (or cannot be done in /proc): overwrite the one
		// file they share, once the content is whole.
		return writeInPlace(t.file, write, os.O_TRUNC, false)
	}
	err := writeAtomic(t.file, write, perm, t.info)
	var te tempError
	if t.info != nil && errors.As(err, &te) {
		// The folder takes no new file, yet the file itself may be writable.
		if ierr := writeInPlace(t.file, write, os.O_TRUNC, false); ierr != nil {
			return fmt.Errorf("%w; nor could it be written in place: %w", err, ierr)
		}
		return nil
	}
	return err
}

// buffered runs write through a buffer on f.
func buffered(f *os.File, write func(io.Writer) error) error {
	bw := bufio.NewWriterSize(f, 256<<10)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// writeFD writes through a duplicate of the process's descriptor fd, which shares its file
// offset: the content follows what the process has written there, as `>> file` would.
func writeFD(name string, fd int, write func(io.Writer) error) error {
	spool, err := produce("", write)
	if err != nil {
		return err
	}
	defer discard(spool)
	f, err := dupFD(fd, name)
	if err != nil {
		return fmt.Errorf("%s: descriptor %d: %w", name, fd, err)
	}
	defer f.Close()
	if _, err := io.Copy(f, spool); err != nil {
		return err
	}
	return f.Close()
}

// writeInPlace produces the content into a spool file, then copies it into target opened
// with flags; openFirst opens target before producing (a FIFO's reader is waiting on it).
func writeInPlace(target string, write func(io.Writer) error, flags int, openFirst bool) error {
	var f *os.File
	open := func() (err error) {
		f, err = os.OpenFile(target, os.O_WRONLY|flags, 0)
		return err
	}
	if openFirst {
		if err := open(); err != nil {
			return err
		}
		defer f.Close()
	}
	spool, err := produce(filepath.Dir(target), write)
	if err != nil {
		return err
	}
	defer discard(spool)
	if !openFirst {
		if err := open(); err != nil {
			return err
		}
		defer f.Close()
	}
	if _, err := io.Copy(f, spool); err != nil {
		return err
	}
	return f.Close()
}

// produce runs write into a new spool file (see createSpool) and rewinds it for reading.
func produce(dir string, write func(io.Writer) error) (*os.File, error) {
	spool, err := createSpool(dir)
	if err != nil {
		return nil, err
	}
	if err := buffered(spool, write); err != nil {
		discard(spool)
		return nil, err
	}
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		discard(spool)
		return nil, fmt.Errorf("rereading spool file %s: %w", spool.Name(), err)
	}
	return spool, nil
}

func discard(spool *os.File) {
	spool.Close()
	os.Remove(spool.Name())
}

// createSpool makes a temporary file beside the target where it can (same file system,
// same space), else in the system's temporary folder (a device's folder, /dev, is not
// writable).
func createSpool(dir string) (*os.File, error) {
	if dir != "" {
		if f, err := os.CreateTemp(dir, ".roceaudit-spool-*"); err == nil {
			return f, nil
		}
	}
	f, err := os.CreateTemp("", "roceaudit-spool-*")
	if err != nil {
		return nil, fmt.Errorf("creating a spool file: %w", err)
	}
	return f, nil
}

// tempError is a temporary file that could not be created beside the target.
type tempError struct{ err error }

func (e tempError) Error() string { return e.err.Error() }
func (e tempError) Unwrap() error { return e.err }

// writeAtomic writes a temporary file beside target and renames it over target. A file that
// is replaced (old is its state) keeps its mode, owner and group: a report kept private
// stays private.
func writeAtomic(target string, write func(io.Writer) error, perm os.FileMode, old fs.FileInfo) error {
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return tempError{err}
	}
	defer os.Remove(f.Name())
	if err := buffered(f, write); err != nil {
		f.Close()
		return err
	}
	mode := perm
	if old != nil {
		keepOwner(f, old) // before chmod: a chown clears the set-id bits
		mode = old.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), target)
}
