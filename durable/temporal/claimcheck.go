package temporal

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"
)

// BlobStore holds the payloads a [ClaimCheck] keeps out of workflow
// histories. Every worker and client of a session must reach the same
// store. Put and Get are called by the SDK's data converter, on the
// goroutine encoding or decoding a payload; data is the callee's to keep
// (Put) or the caller's (Get). A key is the SHA-256 of the data in hex: a
// Put of a key already stored may keep the stored copy.
type BlobStore interface {
	Put(ctx context.Context, key string, data []byte) error
	Get(ctx context.Context, key string) ([]byte, error)
}

// ClaimCheckEncoding is the metadata encoding of a payload that a
// [ClaimCheck] replaced by its key.
const ClaimCheckEncoding = "agentcore/claim-check"

// DefaultClaimThreshold is the size past which a [ClaimCheck] with a zero
// Threshold moves a payload to its store.
const DefaultClaimThreshold = 64 << 10

// ClaimCheck is a [converter.PayloadCodec] that moves every payload
// larger than Threshold bytes to Store and leaves its key in its place:
// the transcript, the model requests' contexts and the tool results then
// stay out of the history, and no payload, history transaction or history
// size limit of the server is approached however large a session grows
// (see the package doc's Limits). Use it in the data converter of every
// worker and client of the sessions, and give the workers'
// [Options.PayloadLimit] [NoPayloadLimit]:
//
//	cc := &temporal.ClaimCheck{Store: temporal.DirStore("/shared/blobs")}
//	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), cc)
//	c, err := client.Dial(client.Options{DataConverter: dc})
//
// Stored payloads are never deleted by the codec: a store's owner expires
// them once the sessions' histories (their retention period included)
// are gone. A codec that encrypts goes after it in the chain, so that
// stored payloads are encrypted too.
type ClaimCheck struct {
	// Store holds the large payloads; it is required.
	Store BlobStore
	// Threshold is the encoded size, in bytes, past which a payload is
	// stored; zero means DefaultClaimThreshold.
	Threshold int
}

var _ converter.PayloadCodec = (*ClaimCheck)(nil)

// Encode replaces each payload larger than the threshold by its key.
func (c *ClaimCheck) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	threshold := c.Threshold
	if threshold <= 0 {
		threshold = DefaultClaimThreshold
	}
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if proto.Size(p) <= threshold {
			out[i] = p
			continue
		}
		data, err := proto.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("agentcore/durable: claim check: %w", err)
		}
		sum := sha256.Sum256(data)
		key := hex.EncodeToString(sum[:])
		if err := c.Store.Put(context.Background(), key, data); err != nil {
			return nil, fmt.Errorf("agentcore/durable: claim check: store %s: %w", key, err)
		}
		out[i] = &commonpb.Payload{Metadata: map[string][]byte{converter.MetadataEncoding: []byte(ClaimCheckEncoding)}, Data: []byte(key)}
	}
	return out, nil
}

// Decode replaces each key by the payload it stands for.
func (c *ClaimCheck) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != ClaimCheckEncoding {
			out[i] = p
			continue
		}
		key := string(p.GetData())
		data, err := c.Store.Get(context.Background(), key)
		if err != nil {
			return nil, fmt.Errorf("agentcore/durable: claim check: load %s: %w", key, err)
		}
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != key {
			return nil, fmt.Errorf("agentcore/durable: claim check: load %s: %w", key, errCorrupt)
		}
		q := &commonpb.Payload{}
		if err := proto.Unmarshal(data, q); err != nil {
			return nil, fmt.Errorf("agentcore/durable: claim check: load %s: %w", key, err)
		}
		out[i] = q
	}
	return out, nil
}

// errCorrupt is a stored payload that does not match its key.
var errCorrupt = errors.New("stored data does not match its key")

// DirStore is a [BlobStore] keeping each payload in a file named by its
// key in the directory it names, which it creates as needed: for workers
// and clients on one machine, or sharing a network file system.
type DirStore string

// Put writes data to the key's file, through a temporary file renamed
// into place, so that a reader never sees a partial payload.
func (d DirStore) Put(_ context.Context, key string, data []byte) error {
	path := filepath.Join(string(d), filepath.Base(key))
	if _, err := os.Stat(path); err == nil {
		return nil // content-addressed: already stored
	}
	if err := os.MkdirAll(string(d), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(string(d), ".put-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
	return err
}

// Get reads the key's file.
func (d DirStore) Get(_ context.Context, key string) ([]byte, error) {
	return os.ReadFile(filepath.Join(string(d), filepath.Base(key)))
}
