package bedrock

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// encodeFrame is an event-stream message of string headers (name, value
// pairs) and payload.
func encodeFrame(payload string, headers ...string) []byte {
	var h []byte
	for i := 0; i+1 < len(headers); i += 2 {
		h = append(h, byte(len(headers[i])))
		h = append(h, headers[i]...)
		h = append(h, 7)
		h = binary.BigEndian.AppendUint16(h, uint16(len(headers[i+1])))
		h = append(h, headers[i+1]...)
	}
	total := preludeLen + len(h) + len(payload) + crcLen
	b := binary.BigEndian.AppendUint32(nil, uint32(total))
	b = binary.BigEndian.AppendUint32(b, uint32(len(h)))
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = append(append(b, h...), payload...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// eventFrame is the message of an event of type name with a JSON payload.
func eventFrame(name, payload string) []byte {
	return encodeFrame(payload, ":event-type", name, ":content-type", "application/json", ":message-type", "event")
}

// readFrames reads every message of body: the event types (or
// "!exception-type") and payloads, and the error that ended it (nil for a
// clean end).
func readFrames(body []byte) (names, payloads []string, err error) {
	fr := newFrameReader(bytes.NewReader(body))
	for {
		f, err := fr.next()
		if errors.Is(err, io.EOF) {
			return names, payloads, nil
		}
		if err != nil {
			return names, payloads, err
		}
		name := string(f.eventType)
		if string(f.messageType) != "event" {
			name = "!" + string(f.exceptionType) + string(f.errorCode)
		}
		names = append(names, name)
		payloads = append(payloads, string(f.payload))
	}
}

// TestFrameReaderReadsNodeEncoding reads the bodies the recorder encoded
// in JavaScript: every message, its headers and its payload; a cut or
// corrupted body fails with the AWS SDK's words.
func TestFrameReaderReadsNodeEncoding(t *testing.T) {
	names, payloads, err := readFrames(providertest.ReadTestdata(t, "stream", "text.bin"))
	require.NoError(t, err)
	assert.Equal(t, []string{"messageStart", "contentBlockDelta", "contentBlockDelta", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"}, names)
	assert.JSONEq(t, `{"contentBlockIndex":0,"delta":{"text":"Hello"},"p":"abcd"}`, payloads[1])

	names, _, err = readFrames(providertest.ReadTestdata(t, "stream", "error-message.bin"))
	require.NoError(t, err)
	assert.Equal(t, "!InternalFailure", names[len(names)-1])

	tests := []struct{ body, text string }{
		{"cut-mid-frame.bin", "Truncated event message received."},
		{"bad-prelude-crc.bin", "The prelude checksum specified in the message (2796224120) does not match the calculated CRC32 checksum (2813001336)"},
		{"bad-message-crc.bin", "The message checksum (3851156850) did not match the expected value of 3834379634"},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			_, _, err := readFrames(providertest.ReadTestdata(t, "stream", tt.body))
			require.Error(t, err)
			assert.Equal(t, tt.text, bodyFailure(err).Text)
		})
	}
}

// TestFrameReaderLimits: a message announcing more than AWS's limits, or
// headers past its end, is refused before its bytes are read; a header of
// an unknown type or cut short is malformed.
func TestFrameReaderLimits(t *testing.T) {
	prelude := func(total, headers uint32) []byte {
		b := binary.BigEndian.AppendUint32(nil, total)
		b = binary.BigEndian.AppendUint32(b, headers)
		return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	}
	good := eventFrame("metadata", "{}")
	badHeader := append([]byte(nil), good...)
	badHeader[preludeLen+1+len(":event-type")] = 42 // the first header's type
	binary.BigEndian.PutUint32(badHeader[len(badHeader)-4:], crc32.ChecksumIEEE(badHeader[:len(badHeader)-4]))
	tests := []struct {
		name string
		body []byte
	}{
		{"4 GiB message", prelude(1<<32-1, 0)},
		{"too short", prelude(8, 0)},
		{"headers past the end", prelude(100, 90)},
		{"headers too large", prelude(1<<20, 200<<10)},
		{"unknown header type", badHeader},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := readFrames(tt.body)
			assert.ErrorIs(t, err, errFraming)
		})
	}
}

// FuzzFrameReader: whatever the bytes, the reader ends with io.EOF or an
// error, never panics, and reads back every message it is given whole.
func FuzzFrameReader(f *testing.F) {
	f.Add(eventFrame("messageStart", `{"role":"assistant"}`))
	f.Add(append(eventFrame("contentBlockDelta", `{"delta":{"text":"hi"}}`), eventFrame("messageStop", `{"stopReason":"end_turn"}`)...))
	f.Add(encodeFrame(`{"message":"slow"}`, ":exception-type", "throttlingException", ":message-type", "exception"))
	f.Add([]byte{0, 0, 0, 16, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, body []byte) {
		if _, _, err := readFrames(body); err != nil && !errors.Is(err, errFraming) && !errors.Is(err, ErrTruncated) {
			t.Fatalf("unexpected error %v", err)
		}
		payload := strings.ToValidUTF8(string(body), "")
		if len(payload) > 1000 {
			payload = payload[:1000]
		}
		_, got, err := readFrames(eventFrame("e", payload))
		require.NoError(t, err)
		require.Equal(t, []string{payload}, got)
	})
}
