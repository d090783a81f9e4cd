package sdkbench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

func serve(body []byte) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}))
}

type reader struct {
	name string
	read Reader
}

var (
	openaiReaders    = []reader{{"agentcore", AgentcoreOpenAI}, {"sdk", SDKOpenAI}, {"floor", FloorOpenAI}}
	anthropicReaders = []reader{{"agentcore", AgentcoreAnthropic}, {"sdk", SDKAnthropic}, {"floor", FloorAnthropic}}
	responsesReaders = []reader{{"agentcore", AgentcoreResponses}, {"sdk", SDKResponses}, {"floor", FloorResponses}}
	geminiReaders    = []reader{{"agentcore", AgentcoreGemini}, {"sdk", SDKGemini}, {"floor", FloorGemini}}
)

// TestSameResult checks that every reader gets the whole response.
func TestSameResult(t *testing.T) {
	for _, p := range []struct {
		name    string
		body    []byte
		readers []reader
	}{
		{"openai", OpenAIBody(Turn), openaiReaders}, {"anthropic", AnthropicBody(Turn), anthropicReaders},
		{"responses", ResponsesBody(Turn), responsesReaders}, {"gemini", GeminiBody(Turn), geminiReaders},
	} {
		srv := serve(p.body)
		var want Result
		for i, r := range p.readers {
			got, err := r.read(context.Background(), srv.URL)
			if err != nil {
				t.Fatalf("%s/%s: %v", p.name, r.name, err)
			}
			if i == 0 {
				want = got
				t.Logf("%s: %d bytes on the wire, %+v", p.name, len(p.body), got)
			} else if got != want {
				t.Errorf("%s/%s: %+v, want %+v", p.name, r.name, got, want)
			}
		}
		if want.Calls != Turn.Tools || want.Text == 0 || want.Reasoning == 0 {
			t.Errorf("%s: incomplete %+v", p.name, want)
		}
		srv.Close()
	}
}

func bench(b *testing.B, body []byte, rs []reader) {
	srv := serve(body)
	defer srv.Close()
	for _, r := range rs {
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if _, err := r.read(context.Background(), srv.URL); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkOpenAI(b *testing.B)    { bench(b, OpenAIBody(Turn), openaiReaders) }
func BenchmarkAnthropic(b *testing.B) { bench(b, AnthropicBody(Turn), anthropicReaders) }
func BenchmarkResponses(b *testing.B) { bench(b, ResponsesBody(Turn), responsesReaders) }
func BenchmarkGemini(b *testing.B)    { bench(b, GeminiBody(Turn), geminiReaders) }
