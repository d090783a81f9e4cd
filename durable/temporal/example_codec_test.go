package temporal_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pi-go/agentcore"
	durable "github.com/pi-go/agentcore/durable/temporal"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

// encrypt is a payload codec sealing payloads with AES-GCM: a sketch of
// the codec that keeps transcripts encrypted in the history and in the
// claim check's store (keys would come from a key service).
type encrypt struct{ aead cipher.AEAD }

const encryptedEncoding = "binary/encrypted"

func (e encrypt) Encode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		plain, err := p.Marshal()
		if err != nil {
			return nil, err
		}
		nonce := make([]byte, e.aead.NonceSize())
		if _, err := rand.Read(nonce); err != nil {
			return nil, err
		}
		out[i] = &commonpb.Payload{Metadata: map[string][]byte{converter.MetadataEncoding: []byte(encryptedEncoding)},
			Data: e.aead.Seal(nonce, nonce, plain, nil)}
	}
	return out, nil
}

func (e encrypt) Decode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != encryptedEncoding {
			out[i] = p
			continue
		}
		n := e.aead.NonceSize()
		plain, err := e.aead.Open(nil, p.Data[:n], p.Data[n:], nil)
		if err != nil {
			return nil, err
		}
		out[i] = &commonpb.Payload{}
		if err := out[i].Unmarshal(plain); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ExampleClaimCheck builds the data converter of workers and clients that
// keep large payloads in a directory and every payload encrypted: the
// claim check comes first, so the encrypting codec seals payloads before
// they are stored. Give it to client.Options.DataConverter of every
// worker and client, and Options.PayloadLimit = NoPayloadLimit to the
// sessions.
func ExampleClaimCheck() {
	dir, _ := os.MkdirTemp("", "blobs")
	defer os.RemoveAll(dir)
	block, _ := aes.NewCipher(bytes.Repeat([]byte{7}, 32))
	aead, _ := cipher.NewGCM(block)
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(),
		&durable.ClaimCheck{Store: durable.DirStore(dir)}, encrypt{aead})

	large := durable.Messages{agentcore.UserText(strings.Repeat("secret ", 20_000))}
	p, _ := dc.ToPayload(large)
	fmt.Println("in the history:", string(p.GetMetadata()[converter.MetadataEncoding]))
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	stored, _ := os.ReadFile(files[0])
	fmt.Println("plain text in the store:", bytes.Contains(stored, []byte("secret")))
	var back durable.Messages
	_ = dc.FromPayload(p, &back)
	fmt.Println("round trip:", back[0].(*agentcore.UserMessage).Text() == large[0].(*agentcore.UserMessage).Text())
	// Output:
	// in the history: agentcore/claim-check
	// plain text in the store: false
	// round trip: true
}
