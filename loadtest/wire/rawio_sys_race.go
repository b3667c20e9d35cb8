//go:build linux && race

package wire

import "syscall"

// Under the race detector, read(2) and write(2) go through package
// syscall, which tells the detector what the kernel copied and that I/O
// orders the goroutines on either end (a raw system call would hide both
// and make it report races that are not there). `make test` also runs
// this package without -race, for the raw calls of rawio_sys.go.
func sysRead(fd uintptr, p []byte) (int, syscall.Errno) {
	return errno(syscall.Read(int(fd), p))
}

func sysWrite(fd uintptr, p []byte) (int, syscall.Errno) {
	return errno(syscall.Write(int(fd), p))
}

func errno(n int, err error) (int, syscall.Errno) {
	if e, ok := err.(syscall.Errno); ok {
		return 0, e
	} else if err != nil {
		return 0, syscall.EIO // package syscall returns only Errno here
	}
	return n, 0
}
