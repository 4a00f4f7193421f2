// Package outfile writes the files a user names on the command line (reports, snapshots)
// without damaging what is there: a symlink is written through to its target (never
// replaced by a regular file), a device or FIFO (/dev/stdout, a named pipe) is written to as
// it is, and only a regular file, or a new one, is replaced atomically, so that a reader never
// sees half a report.
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
		// A device, FIFO or socket: write to it, never replace it.
		return writeInPlace(target, write, 0)
	case err == nil && hardLinked(st):
		// Renaming would split the links: overwrite the one file they share.
		return writeInPlace(target, write, os.O_TRUNC)
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

func writeInPlace(target string, write func(io.Writer) error, flags int) error {
	f, err := os.OpenFile(target, os.O_WRONLY|flags, 0)
	if err != nil {
		return err
	}
	if err := buffered(f, write); err != nil {
		f.Close()
		return err
	}
	return f.Close()
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
