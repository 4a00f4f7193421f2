//go:build !linux

package main

// addrRange is [lo, hi) in the address space.
type addrRange struct{ lo, hi uintptr }

// adviseHugeHeap is Linux's transparent huge page advice; elsewhere the heap is left as is.
func adviseHugeHeap(int64) []addrRange { return nil }
