//go:build !linux

package main

// adviseHugeHeap is Linux's transparent huge page advice; elsewhere the heap is left as is.
func adviseHugeHeap(int64) (begin, end uintptr) { return 0, 0 }
