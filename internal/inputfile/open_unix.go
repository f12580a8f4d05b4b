//go:build unix

package inputfile

import (
	"os"
	"syscall"
)

// openNonblocking opens with O_NONBLOCK, so opening a FIFO with no writer
// returns at once; reads of a regular file ignore the flag.
func openNonblocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
