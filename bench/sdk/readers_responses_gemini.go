package sdkbench

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/openai/openai-go/v3"
	oopt "github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"google.golang.org/genai"

	"github.com/pi-go/agentcore"
	pigoogle "github.com/pi-go/agentcore/providers/google"
	piresp "github.com/pi-go/agentcore/providers/openairesponses"
)

// AgentcoreResponses reads with providers/openairesponses.
func AgentcoreResponses(ctx context.Context, url string) (Result, error) {
	fn := piresp.StreamFn(piresp.Options{BaseURL: url, APIKey: "k"})
	model := agentcore.Model{ID: "bench-model", Provider: "bench", API: "openai-responses", Reasoning: true, MaxTokens: 4096, ContextWindow: 200000}
	return drain(fn(ctx, model, piRequest, agentcore.StreamOptions{}))
}

// AgentcoreGemini reads with providers/google.
func AgentcoreGemini(ctx context.Context, url string) (Result, error) {
	fn := pigoogle.StreamFn(pigoogle.Options{BaseURL: url, APIKey: "k"})
	model := agentcore.Model{ID: "bench-model", Provider: "google", API: "google-generative-ai", Reasoning: true, MaxTokens: 4096, ContextWindow: 200000}
	return drain(fn(ctx, model, piRequest, agentcore.StreamOptions{}))
}

// SDKResponses reads with openai-go's Responses streaming, gathering the
// deltas and each call's final arguments from the events.
func SDKResponses(ctx context.Context, url string) (Result, error) {
	c := openai.NewClient(oopt.WithBaseURL(url), oopt.WithAPIKey("k"), oopt.WithMaxRetries(0))
	s := c.Responses.NewStreaming(ctx, responses.ResponseNewParams{Model: "bench-model",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("go")}})
	defer s.Close()
	var r Result
	var text, reasoning strings.Builder
	for s.Next() {
		ev := s.Current()
		switch ev.Type {
		case "response.output_text.delta":
			text.WriteString(ev.Delta)
		case "response.reasoning_summary_text.delta":
			reasoning.WriteString(ev.Delta)
		case "response.function_call_arguments.done":
			if json.Valid([]byte(ev.Arguments)) {
				r.Calls++
			}
			r.ArgBytes += len(ev.Arguments)
		}
	}
	if err := s.Err(); err != nil {
		return Result{}, err
	}
	r.Text, r.Reasoning = text.Len(), reasoning.Len()
	return r, nil
}

// SDKGemini reads with google.golang.org/genai's GenerateContentStream.
func SDKGemini(ctx context.Context, url string) (Result, error) {
	c, err := genai.NewClient(ctx, &genai.ClientConfig{APIKey: "k", Backend: genai.BackendGeminiAPI, HTTPOptions: genai.HTTPOptions{BaseURL: url}})
	if err != nil {
		return Result{}, err
	}
	var r Result
	var text, reasoning strings.Builder
	for resp, err := range c.Models.GenerateContentStream(ctx, "bench-model", genai.Text("go"), nil) {
		if err != nil {
			return Result{}, err
		}
		if len(resp.Candidates) == 0 || resp.Candidates[0].Content == nil {
			continue
		}
		for _, p := range resp.Candidates[0].Content.Parts {
			switch {
			case p.FunctionCall != nil:
				a, err := json.Marshal(p.FunctionCall.Args)
				if err != nil {
					return Result{}, err
				}
				r.Calls++
				r.ArgBytes += len(a)
			case p.Thought:
				reasoning.WriteString(p.Text)
			default:
				text.WriteString(p.Text)
			}
		}
	}
	r.Text, r.Reasoning = text.Len(), reasoning.Len()
	return r, nil
}

// FloorResponses is FloorOpenAI for the Responses stream.
func FloorResponses(ctx context.Context, url string) (Result, error) {
	type event struct {
		Type        string `json:"type"`
		OutputIndex int    `json:"output_index"`
		Delta       string `json:"delta"`
	}
	var text, reasoning []byte
	var args [][]byte
	err := floor(ctx, url+"/responses", func(data []byte) error {
		var e event
		if err := json.Unmarshal(data, &e); err != nil {
			return err
		}
		switch e.Type {
		case "response.output_text.delta":
			text = append(text, e.Delta...)
		case "response.reasoning_summary_text.delta":
			reasoning = append(reasoning, e.Delta...)
		case "response.function_call_arguments.delta":
			for len(args) <= e.OutputIndex {
				args = append(args, nil)
			}
			args[e.OutputIndex] = append(args[e.OutputIndex], e.Delta...)
		}
		return nil
	})
	var calls [][]byte
	for _, a := range args {
		if a != nil {
			calls = append(calls, a)
		}
	}
	return floorResult(text, reasoning, calls), err
}

// FloorGemini is FloorOpenAI for Gemini's stream.
func FloorGemini(ctx context.Context, url string) (Result, error) {
	type chunk struct {
		Candidates []struct {
			Content struct {
				Parts []struct {
					Text         string `json:"text"`
					Thought      bool   `json:"thought"`
					FunctionCall *struct {
						Args json.RawMessage `json:"args"`
					} `json:"functionCall"`
				} `json:"parts"`
			} `json:"content"`
		} `json:"candidates"`
	}
	var text, reasoning []byte
	var args [][]byte
	err := floor(ctx, url+"/models/bench-model:streamGenerateContent?alt=sse", func(data []byte) error {
		var c chunk
		if err := json.Unmarshal(data, &c); err != nil {
			return err
		}
		for _, cand := range c.Candidates {
			for _, p := range cand.Content.Parts {
				switch {
				case p.FunctionCall != nil:
					args = append(args, p.FunctionCall.Args)
				case p.Thought:
					reasoning = append(reasoning, p.Text...)
				default:
					text = append(text, p.Text...)
				}
			}
		}
		return nil
	})
	return floorResult(text, reasoning, args), err
}
