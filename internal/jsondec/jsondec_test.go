package jsondec

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

type doc struct {
	A int             `json:"a"`
	S string          `json:"s"`
	L []int           `json:"l"`
	R json.RawMessage `json:"r"`
	P *doc            `json:"p"`
}

// TestDecodeAsUnmarshal decodes a sequence of documents with one Decoder
// and checks each result and error against json.Unmarshal's.
func TestDecodeAsUnmarshal(t *testing.T) {
	docs := []string{
		`{"a":1,"s":"x","l":[1,2]}`, `{"a":2}`, `{"s":"y\u00e9","r":{"k":[1]}}`, ` {"a":3} `, `{"a":4}`,
		`{"a":"wrong","s":"kept"}`, `{"a":5}`, `{"a":6} x`, `{"a":7}`, `{"a":8}}`, `{"a":9}`, `{"a":`, `{"a":10}`,
		``, `   `, `null`, `42`, `"str"`, `[1]`, `{"a":11}{"a":12}`, `{"p":{"a":13,"p":null}}`, `{"a":1e400}`, `tru`, `true`,
		`{"l":[1,"x",3]}`, "{\"s\":\"a\x01\"}", `{"a":14}`,
	}
	var d Decoder
	for _, data := range docs {
		var got, want doc
		gotErr := d.Decode([]byte(data), &got)
		wantErr := json.Unmarshal([]byte(data), &want)
		if wantErr != nil {
			assert.EqualError(t, gotErr, wantErr.Error(), data)
			if _, syntax := wantErr.(*json.SyntaxError); syntax {
				continue // v is unspecified after a syntax error
			}
		} else {
			assert.NoError(t, gotErr, data)
		}
		assert.Equal(t, want, got, data)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"a":1}`), []byte(`{"s":"x"} y`))
	f.Add([]byte(`[`), []byte(`{"l":[1]}`))
	f.Fuzz(func(t *testing.T, first, second []byte) {
		var d Decoder
		for _, data := range [][]byte{first, second, first} {
			var got, want doc
			gotErr := d.Decode(data, &got)
			wantErr := json.Unmarshal(data, &want)
			if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
				t.Fatalf("%q: error %v, want %v", data, gotErr, wantErr)
			}
			if _, syntax := wantErr.(*json.SyntaxError); !syntax {
				assert.Equal(t, want, got)
			}
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	data := []byte(`{"id":"c","choices":[{"index":0,"delta":{"content":"word "}}]}`)
	type chunk struct {
		Choices []struct {
			Delta struct {
				Content string `json:"content"`
			} `json:"delta"`
		} `json:"choices"`
	}
	b.Run("Decoder", func(b *testing.B) {
		b.ReportAllocs()
		var d Decoder
		var c chunk
		for b.Loop() {
			c = chunk{Choices: c.Choices[:0]}
			_ = d.Decode(data, &c)
		}
	})
	b.Run("Unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		var c chunk
		for b.Loop() {
			c = chunk{Choices: c.Choices[:0]}
			_ = json.Unmarshal(data, &c)
		}
	})
}
