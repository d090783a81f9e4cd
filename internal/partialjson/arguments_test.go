package partialjson

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArgumentsStream(t *testing.T) {
	tests := []struct {
		name      string
		pieces    []string
		previews  []string // after each piece
		final     string
		finalFail bool
	}{
		{
			name:     "complete object",
			pieces:   []string{`{"path": "/etc/`, `passwd"}`},
			previews: []string{`{"path":"/etc/"}`, `{"path":"/etc/passwd"}`},
			final:    `{"path":"/etc/passwd"}`,
		},
		{
			name:     "never closed",
			pieces:   []string{`{"path": "/etc/pas`},
			previews: []string{`{"path":"/etc/pas"}`},
			final:    `{}`, finalFail: true,
		},
		{
			name:     "array root shows no arguments",
			pieces:   []string{`[1, `, `2]`},
			previews: []string{`{}`, `{}`},
			final:    `{}`, finalFail: true,
		},
		{
			name:     "no text",
			pieces:   []string{""},
			previews: []string{`{}`},
			final:    `{}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a ArgumentsStream
			for i, piece := range tt.pieces {
				assert.Equal(t, tt.previews[i], string(a.Append(piece)), "preview after piece %d", i)
			}
			assert.Equal(t, strings.Join(tt.pieces, ""), a.Text())
			args, errText := a.Finish()
			assert.Equal(t, tt.final, string(args))
			assert.Equal(t, tt.finalFail, errText != "", "argumentsError %q", errText)
		})
	}
}

// TestArgumentsCostIsLinear streams long arguments in small pieces: the
// previews lag behind the text but their total size stays linear.
func TestArgumentsStreamCostIsLinear(t *testing.T) {
	var a ArgumentsStream
	a.Append(`{"content": "`)
	total := 0 // bytes of fresh previews
	var last []byte
	const pieces = 20000
	for range pieces {
		if p := a.Append("xxxxx"); len(p) > 0 && (len(last) == 0 || &p[0] != &last[0]) {
			total += len(p)
			last = p
		}
	}
	// Quadratic previews would copy about 5*pieces*pieces/2 bytes.
	require.LessOrEqual(t, total, creditPerAppend*(pieces+1)+creditPerByte*(5*pieces+len(`{"content": "`)))
	a.Append(`"}`)
	args, errText := a.Finish()
	assert.Empty(t, errText)
	assert.Equal(t, `{"content":"`+strings.Repeat("x", pieces*5)+`"}`, string(args))
}

func FuzzArguments(f *testing.F) {
	f.Add(`{"a": "b\q", "c": "` + "\t" + `"}`)
	f.Add(`{"path": "/etc/pas`)
	f.Fuzz(func(t *testing.T, text string) {
		args, errText := Arguments(text)
		require.NotEmpty(t, args)
		require.Equal(t, byte('{'), args[0])
		if errText != "" {
			require.Equal(t, "{}", string(args))
			require.True(t, strings.HasSuffix(errText, "\n\nReceived arguments:\n"+text))
		}
	})
}
