package bedrock

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// The benchmarks of this file read one coding agent's turn, as
// /work/shared/bench/sdk measures the other APIs: 400 reasoning deltas,
// 1,200 text deltas and 4 parallel tool calls of 2.4 KB arguments in 60
// pieces each, as a ConverseStream event stream served over loopback. It
// is read three ways, each checked to get the same content: this
// package's stream function (events ranged to the end), the AWS SDK's
// bedrockruntime ConverseStream (its event reader, content appended), and
// the floor: one POST, each message framed and checked with
// encoding/binary and hash/crc32, its payload decoded with json.Unmarshal
// into a small struct, text and arguments appended.

const benchWord = "lorem ipsum dolor sit amet, consectetur adipiscing elit "

func benchDelta(i int) string { return benchWord[i%40 : i%40+6] }

// turnBody is the event stream of the benchmark's turn.
func turnBody() []byte {
	var b bytes.Buffer
	ev := func(name string, v any) {
		j, _ := json.Marshal(v)
		b.Write(eventFrame(name, string(j)))
	}
	type m = map[string]any
	ev("messageStart", m{"role": "assistant", "p": "abcdefgh"})
	for i := range 400 {
		ev("contentBlockDelta", m{"contentBlockIndex": 0, "delta": m{"reasoningContent": m{"text": benchDelta(i)}}, "p": "abcd"})
	}
	ev("contentBlockDelta", m{"contentBlockIndex": 0, "delta": m{"reasoningContent": m{"signature": "c2lnbmF0dXJl"}}})
	ev("contentBlockStop", m{"contentBlockIndex": 0})
	for i := range 1200 {
		ev("contentBlockDelta", m{"contentBlockIndex": 1, "delta": m{"text": benchDelta(i)}, "p": "abcd"})
	}
	ev("contentBlockStop", m{"contentBlockIndex": 1})
	for k := range 4 {
		idx := 2 + k
		ev("contentBlockStart", m{"contentBlockIndex": idx, "start": m{"toolUse": m{"toolUseId": fmt.Sprintf("tooluse_%d", k), "name": "edit"}}})
		body := strings.Repeat(`x := f(y)\n`, 2400/11)
		args := fmt.Sprintf(`{"path":"src/file%d.go","old":"%s","new":"%s"}`, k, body[:len(body)/2], body[len(body)/2:])
		step := (len(args) + 59) / 60
		for i := 0; i < len(args); i += step {
			ev("contentBlockDelta", m{"contentBlockIndex": idx, "delta": m{"toolUse": m{"input": args[i:min(i+step, len(args))]}}})
		}
		ev("contentBlockStop", m{"contentBlockIndex": idx})
	}
	ev("messageStop", m{"stopReason": "tool_use"})
	ev("metadata", m{"usage": m{"inputTokens": 1000, "outputTokens": 900, "totalTokens": 1900}, "metrics": m{"latencyMs": 1}})
	return b.Bytes()
}

// result is what a reader got out of the turn; every reader must get the
// same.
type result struct {
	Text, Reasoning, Calls, ArgBytes int
}

type benchReader func(ctx context.Context, url string) (result, error)

var benchModel = agentcore.Model{ID: "anthropic.claude-sonnet-4-5-20250929-v1:0", Name: "Claude Sonnet 4.5", API: API, Provider: "amazon-bedrock", MaxTokens: 8192}

// readAgentcore ranges over this package's stream.
func readAgentcore(ctx context.Context, url string) (result, error) {
	fn := StreamFn(Options{BaseURL: url, Getenv: providertest.NoEnv})
	var final *agentcore.AssistantMessage
	for ev := range fn(ctx, benchModel, providertest.HiRequest(), agentcore.StreamOptions{APIKey: "k"}) {
		switch ev := ev.(type) {
		case *agentcore.DoneEvent:
			final = ev.Message
		case *agentcore.ErrorEvent:
			return result{}, errors.New(ev.Message.ErrorMessage)
		}
	}
	var r result
	for _, b := range final.Content {
		switch b := b.(type) {
		case agentcore.TextBlock:
			r.Text += len(b.Text)
		case agentcore.ThinkingBlock:
			r.Reasoning += len(b.Thinking)
		case agentcore.ToolCall:
			if json.Valid(b.Arguments) && b.ArgumentsError == "" {
				r.Calls++
			}
			r.ArgBytes += len(b.Arguments)
		}
	}
	return r, nil
}

// readSDK reads the stream with the AWS SDK's ConverseStream.
func readSDK(ctx context.Context, url string) (result, error) {
	client := bedrockruntime.New(bedrockruntime.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(url), RetryMaxAttempts: 1,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "AKID", SecretAccessKey: "secret"}, nil
		}),
	})
	out, err := client.ConverseStream(ctx, &bedrockruntime.ConverseStreamInput{
		ModelId:  aws.String(benchModel.ID),
		Messages: []types.Message{{Role: types.ConversationRoleUser, Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: "Hi"}}}},
	})
	if err != nil {
		return result{}, err
	}
	stream := out.GetStream()
	defer stream.Close()
	var r result
	args := map[int32]*strings.Builder{}
	for ev := range stream.Events() {
		switch ev := ev.(type) {
		case *types.ConverseStreamOutputMemberContentBlockStart:
			if _, ok := ev.Value.Start.(*types.ContentBlockStartMemberToolUse); ok {
				args[*ev.Value.ContentBlockIndex] = &strings.Builder{}
			}
		case *types.ConverseStreamOutputMemberContentBlockDelta:
			switch d := ev.Value.Delta.(type) {
			case *types.ContentBlockDeltaMemberText:
				r.Text += len(d.Value)
			case *types.ContentBlockDeltaMemberReasoningContent:
				if t, ok := d.Value.(*types.ReasoningContentBlockDeltaMemberText); ok {
					r.Reasoning += len(t.Value)
				}
			case *types.ContentBlockDeltaMemberToolUse:
				args[*ev.Value.ContentBlockIndex].WriteString(*d.Value.Input)
			}
		}
	}
	for _, a := range args {
		r.count(a.String())
	}
	return r, stream.Err()
}

// count adds a call's finished arguments: compacted, as the stream
// function keeps them.
func (r *result) count(args string) {
	var buf bytes.Buffer
	if json.Compact(&buf, []byte(args)) == nil {
		r.Calls++
		r.ArgBytes += buf.Len()
	}
}

// readFloor is the least a correct reader does.
func readFloor(ctx context.Context, url string) (result, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+modelPath(benchModel.ID), strings.NewReader(`{"messages":[{"role":"user","content":[{"text":"Hi"}]}]}`))
	if err != nil {
		return result{}, err
	}
	req.Header.Set("Authorization", "Bearer k")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return result{}, err
	}
	defer resp.Body.Close()
	var r result
	args := map[int]*strings.Builder{}
	var ev struct {
		ContentBlockIndex int `json:"contentBlockIndex"`
		Start             *struct {
			ToolUse *struct{} `json:"toolUse"`
		} `json:"start"`
		Delta *struct {
			Text             string `json:"text"`
			ReasoningContent *struct {
				Text string `json:"text"`
			} `json:"reasoningContent"`
			ToolUse *struct {
				Input string `json:"input"`
			} `json:"toolUse"`
		} `json:"delta"`
	}
	err = floorFrames(resp.Body, func(payload []byte) error {
		ev.Start, ev.Delta = nil, nil
		if err := json.Unmarshal(payload, &ev); err != nil {
			return err
		}
		switch {
		case ev.Start != nil && ev.Start.ToolUse != nil:
			args[ev.ContentBlockIndex] = &strings.Builder{}
		case ev.Delta == nil:
		case ev.Delta.ToolUse != nil:
			args[ev.ContentBlockIndex].WriteString(ev.Delta.ToolUse.Input)
		case ev.Delta.ReasoningContent != nil:
			r.Reasoning += len(ev.Delta.ReasoningContent.Text)
		default:
			r.Text += len(ev.Delta.Text)
		}
		return nil
	})
	if err != nil {
		return result{}, err
	}
	for _, a := range args {
		r.count(a.String())
	}
	return r, nil
}

// floorFrames calls each with the payload of each message of body, its
// prelude and message checksums checked.
func floorFrames(body io.Reader, each func(payload []byte) error) error {
	var prelude [12]byte
	var msg []byte
	for {
		if _, err := io.ReadFull(body, prelude[:]); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		total, hlen := binary.BigEndian.Uint32(prelude[:4]), binary.BigEndian.Uint32(prelude[4:8])
		if crc32.ChecksumIEEE(prelude[:8]) != binary.BigEndian.Uint32(prelude[8:]) || total < 16 || total > 1<<24 || hlen > total-16 {
			return errors.New("bad prelude")
		}
		msg = append(msg[:0], prelude[:]...)
		msg = append(msg, make([]byte, total-12)...)
		if _, err := io.ReadFull(body, msg[12:]); err != nil {
			return err
		}
		if crc32.ChecksumIEEE(msg[:total-4]) != binary.BigEndian.Uint32(msg[total-4:]) {
			return errors.New("bad message")
		}
		if err := each(msg[12+hlen : total-4]); err != nil {
			return err
		}
	}
}

func serveTurn(tb testing.TB) (*httptest.Server, []byte) {
	body := turnBody()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
		w.Write(body)
	}))
	tb.Cleanup(srv.Close)
	return srv, body
}

var benchReaders = []struct {
	name string
	read benchReader
}{{"agentcore", readAgentcore}, {"sdk", readSDK}, {"floor", readFloor}}

// TestBenchReadersAgree: every reader of the benchmark gets the whole
// turn.
func TestBenchReadersAgree(t *testing.T) {
	srv, body := serveTurn(t)
	var want result
	for i, r := range benchReaders {
		got, err := r.read(t.Context(), srv.URL)
		for tries := 0; err != nil && r.name == "sdk" && tries < 10; tries++ {
			got, err = r.read(t.Context(), srv.URL) // see BenchmarkTurn
		}
		require.NoError(t, err, r.name)
		if i == 0 {
			want = got
			t.Logf("%d bytes on the wire, %+v", len(body), got)
			continue
		}
		require.Equal(t, want, got, r.name)
	}
	require.Equal(t, 4, want.Calls)
	srv.Client().CloseIdleConnections()
	http.DefaultClient.CloseIdleConnections()
}

// BenchmarkTurn reads the turn with each reader.
func BenchmarkTurn(b *testing.B) {
	srv, body := serveTurn(b)
	for _, r := range benchReaders {
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			failed, n := 0, 0
			for b.Loop() {
				n++
				// The SDK's reader loses its connection mid-stream now and
				// then over loopback (aws/aws-sdk-go-v2#1825): such a read
				// is counted and done again.
				for tries := 0; ; tries++ {
					_, err := r.read(b.Context(), srv.URL)
					if err == nil {
						break
					}
					if failed++; r.name != "sdk" || tries == 10 {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(failed)/float64(n), "failed/op")
		})
	}
	http.DefaultClient.CloseIdleConnections()
}
