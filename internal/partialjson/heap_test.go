package partialjson

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// heapPerByte streams text to an ArgumentsStream in pieces of size and
// returns the bytes it allocated and the bytes it holds, per byte of text.
func heapPerByte(text string, size int) (allocated, held float64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var a ArgumentsStream
	for i := 0; i < len(text); i += size {
		a.Append(text[i:min(i+size, len(text))])
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(&a)
	n := float64(len(text))
	return float64(after.TotalAlloc-before.TotalAlloc) / n, (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / n
}

// TestNestedBracketsHeap: text of nested brackets, the worst case of the
// parser's stack, costs a few bytes of heap per byte of text, however it
// arrives.
func TestNestedBracketsHeap(t *testing.T) {
	for name, text := range map[string]string{
		"arrays":  strings.Repeat("[", 4<<20),
		"objects": strings.Repeat(`{"a":`, 1<<20),
		"mixed":   `{"k":` + strings.Repeat(`[{"a":`, 1<<19),
	} {
		for _, size := range []int{64, 64 << 10} {
			allocated, held := heapPerByte(text, size)
			t.Logf("%s in pieces of %d: %.1f bytes allocated, %.1f held per byte", name, size, allocated, held)
			assert.LessOrEqual(t, held, 8.0, "%s in pieces of %d: bytes held per byte", name, size)
			assert.LessOrEqual(t, allocated, 32.0, "%s in pieces of %d: bytes allocated per byte", name, size)
		}
	}
}
