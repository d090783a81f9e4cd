package agentcore

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestClone checks that a clone holds the content, whatever its length, in
// a slice of its own without spare capacity.
func TestClone(t *testing.T) {
	for n := range 12 {
		m := &AssistantMessage{Model: "m", StopReason: StopStop}
		for i := range n {
			m.Content = append(m.Content, TextBlock{Text: string(rune('a' + i))})
		}
		c := m.Clone()
		assert.Equal(t, m, c, "%d blocks", n)
		assert.Equal(t, n, cap(c.Content), "%d blocks: spare capacity", n)
		if n > 0 {
			c.Content[0] = TextBlock{Text: "changed"}
			assert.Equal(t, "a", m.Content[0].(TextBlock).Text, "%d blocks: the clone shares the original's blocks", n)
		}
	}
}
