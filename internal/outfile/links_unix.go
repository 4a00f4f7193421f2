package outfile

import (
	"io/fs"
	"syscall"
)

// hardLinked reports whether a regular file has other names.
func hardLinked(st fs.FileInfo) bool {
	s, ok := st.Sys().(*syscall.Stat_t)
	return ok && s.Nlink > 1
}
