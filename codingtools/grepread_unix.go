//go:build unix

package codingtools

import (
	"context"
	"syscall"
)

// readWholeFast is readWhole for the files a directory search walks on the
// local disk, with fewer system calls than os.Open and Read: open, fstat,
// reads until the size fstat gave or the end, close. The open never
// blocks (a FIFO swapped in cannot hang the search) and does not follow a
// link as the last component (the walk met a regular file there); only a
// regular file is read, another reads as empty. ok is false, and the
// caller goes through the FS, unless fsys is the zero [LocalFS], whose
// Open is a plain open of the absolute path: a configured or wrapped FS,
// and a confined tool set, keep their own way of opening files.
func readWholeFast(ctx context.Context, fsys FS, path string, buf []byte) (data []byte, big, ok bool) {
	if l, local := fsys.(LocalFS); !local || l != (LocalFS{}) {
		return buf, false, false
	}
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_NOFOLLOW, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return buf, false, true
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return buf, false, true
	}
	size := int(st.Size)
	if size > grepWholeMax {
		return buf, true, true
	}
	if cap(buf) < size+1 {
		buf = make([]byte, 0, size+1)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if n > 0 {
			buf = buf[:len(buf)+n]
		}
		if len(buf) > grepWholeMax {
			return buf, true, true
		}
		// A read short of the buffer at the size fstat gave is the end: the
		// file did not grow meanwhile, as far as one read can tell.
		if n <= 0 || err != nil || len(buf) == size && len(buf) < cap(buf) {
			return buf, false, true
		}
	}
}
