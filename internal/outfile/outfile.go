// Package outfile writes the files a user names on the command line (reports, snapshots)
// without damaging what is there: a symlink is written through to its target (never
// replaced by a regular file), a device or FIFO (/dev/stdout, a named pipe) or a hard-linked
// file is written to as it is, and only a regular file, or a new one, is replaced atomically,
// so that a reader never sees half a report. What is written in place is produced into a
// spool file first: a failed write leaves a hard-linked file as it was and gives a FIFO's
// reader nothing rather than a partial report.
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

// Check says whether path can be written, before anything expensive is done: its folder
// exists and it is not a folder itself (after following symlinks).
func Check(path string) error {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	st, err := os.Stat(target)
	switch {
	case err == nil && st.IsDir():
		return fmt.Errorf("%s is a folder, not a file", path)
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	dir := filepath.Dir(target)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("folder %s does not exist", dir)
	}
	return nil
}

// Write puts data at path with perm (for a file it creates or replaces).
func Write(path string, data []byte, perm os.FileMode) error {
	return WriteFunc(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc is Write for content too large to hold in memory: write streams it to the file
// (buffered), with the same care for what is there.
func WriteFunc(path string, perm os.FileMode, write func(io.Writer) error) error {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	st, err := os.Stat(target)
	switch {
	case err == nil && st.IsDir():
		return fmt.Errorf("%s is a folder, not a file", path)
	case err == nil && !st.Mode().IsRegular():
		// A device, FIFO or socket: write to it, never replace it. It is opened before the
		// content is produced, as a reader waiting on a FIFO expects, and closed empty if
		// producing fails, so that reader sees an end rather than waiting forever.
		return writeInPlace(target, write, 0, true)
	case err == nil && hardLinked(st):
		// Renaming would split the links: overwrite the one file they share, once the
		// content is whole.
		return writeInPlace(target, write, os.O_TRUNC, false)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return writeAtomic(target, write, perm)
}

// resolve follows symlinks to the file that would really be written, which may not exist
// yet (a dangling link names the file to create).
func resolve(path string) (string, error) {
	p := path
	for range maxLinks {
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && st.Mode()&fs.ModeSymlink == 0) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// buffered runs write through a buffer on f.
func buffered(f *os.File, write func(io.Writer) error) error {
	bw := bufio.NewWriterSize(f, 256<<10)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
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
	spool, err := createSpool(filepath.Dir(target))
	if err != nil {
		return err
	}
	defer func() {
		spool.Close()
		os.Remove(spool.Name())
	}()
	if err := buffered(spool, write); err != nil {
		return err
	}
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("rereading spool file %s: %w", spool.Name(), err)
	}
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

// createSpool makes a temporary file beside the target where it can (same file system,
// same space), else in the system's temporary folder (a device's folder, /dev, is not
// writable).
func createSpool(dir string) (*os.File, error) {
	f, err := os.CreateTemp(dir, ".roceaudit-spool-*")
	if err == nil {
		return f, nil
	}
	f, err2 := os.CreateTemp("", "roceaudit-spool-*")
	if err2 != nil {
		return nil, fmt.Errorf("creating a spool file: %w", errors.Join(err, err2))
	}
	return f, nil
}

// writeAtomic writes a temporary file beside target and renames it over target.
func writeAtomic(target string, write func(io.Writer) error, perm os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := buffered(f, write); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(perm); err != nil {
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
