package acp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/hold"
)

const textRejectedAlways = "The user rejected this tool for the rest of the session."

func (c *connection) prompt(ctx context.Context, params json.RawMessage) (reply, error) {
	var p promptRequest
	if err := decodeParams(params, &p); err != nil {
		return reply{}, err
	}
	s, err := c.lookup(p.SessionID)
	if err != nil {
		return reply{}, err
	}
	if p.Prompt == nil {
		return reply{}, rpcError(CodeInvalidParams, "invalid params: prompt is required")
	}
	blocks, err := s.convertPrompt(p.Prompt)
	if err != nil {
		return reply{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		return reply{}, rpcError(CodeInvalidRequest, "session %s is already running a prompt", s.id)
	}
	s.running, s.cancel, s.cancelled, s.turns, s.limited = true, cancel, false, 0, false
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running, s.cancel = false, nil
		s.mu.Unlock()
	}()
	stop, err := s.run(ctx, blocks)
	if err != nil {
		return reply{}, err
	}
	return reply{result: promptResponse{StopReason: stop}}, nil
}

// run runs one prompt turn to its stop reason: the Agent's run and, while
// it holds calls for permission, the questions to the client and the runs
// that go on from their answers.
func (s *sess) run(ctx context.Context, blocks []agentcore.ContentBlock) (string, error) {
	err := s.agent.PromptMessages(ctx, &agentcore.UserMessage{Content: agentcore.Blocks(blocks...), Timestamp: time.Now().UnixMilli()})
	undecided := false
	for errors.Is(err, hold.ErrHeld) && ctx.Err() == nil {
		if !s.holds() {
			// Held by a Gate of the program's own, which the client
			// cannot answer.
			return "", rpcError(CodeInternalError, "%v (a hold.Gate among the Agent's layers: use Options.Permission)", err)
		}
		if !s.askPermissions(ctx) {
			undecided = true
			break
		}
		err = s.agent.Continue(ctx)
	}
	s.mu.Lock()
	cancelled, limited := s.cancelled, s.limited
	s.mu.Unlock()
	if ctx.Err() != nil || cancelled || undecided {
		s.denyWaiting(textCancelled)
		return stopCancelled, nil
	}
	if limited {
		return stopMaxTurns, nil
	}
	last := s.lastAssistant()
	if err != nil {
		if errors.Is(err, agentcore.ErrBusy) {
			return "", rpcError(CodeInvalidRequest, "session %s is already running a prompt", s.id)
		}
		var runErr *agentcore.RunError
		if errors.As(err, &runErr) && last != nil && isRefusal(last) {
			return stopRefusal, nil
		}
		return "", rpcError(CodeInternalError, "%v", err)
	}
	switch {
	case last == nil:
		return stopEndTurn, nil
	case isRefusal(last):
		return stopRefusal, nil
	case last.StopReason == agentcore.StopLength:
		return stopMaxTokens, nil
	}
	return stopEndTurn, nil
}

// isRefusal reports a response the provider ended as a refusal (Claude's
// "refusal", OpenAI's and Gemini's content filters).
func isRefusal(m *agentcore.AssistantMessage) bool {
	switch strings.ToLower(m.RawStopReason) {
	case "refusal", "content_filter", "safety", "prohibited_content", "blocklist", "spii":
		return true
	}
	return false
}

// lastAssistant is the transcript's last assistant message, or nil.
func (s *sess) lastAssistant() *agentcore.AssistantMessage {
	msgs := s.agent.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if m, ok := msgs[i].(*agentcore.AssistantMessage); ok {
			return m
		}
	}
	return nil
}

// convertPrompt turns the prompt's content blocks into a user message's:
// text and images as they are, a resource link as a text naming it, an
// embedded text resource as its text in a <context> element, an
// embedded image as the image. A slash command is expanded.
func (s *sess) convertPrompt(raw []json.RawMessage) ([]agentcore.ContentBlock, error) {
	out := make([]agentcore.ContentBlock, 0, len(raw))
	for i, r := range raw {
		var b contentBlock
		if err := json.Unmarshal(r, &b); err != nil {
			return nil, rpcError(CodeInvalidParams, "invalid params: prompt[%d]: %v", i, err)
		}
		switch b.Type {
		case "text":
			text := b.Text
			if i == 0 {
				text = s.expandCommand(text)
			}
			out = append(out, agentcore.TextBlock{Text: text})
		case "image":
			if b.Data == "" || b.MimeType == "" {
				return nil, rpcError(CodeInvalidParams, "invalid params: prompt[%d]: an image needs data and mimeType", i)
			}
			if _, err := base64.StdEncoding.DecodeString(b.Data); err != nil {
				return nil, rpcError(CodeInvalidParams, "invalid params: prompt[%d]: image data is not base64: %v", i, err)
			}
			out = append(out, agentcore.ImageBlock{Data: b.Data, MimeType: b.MimeType})
		case "resource_link":
			if b.URI == "" {
				return nil, rpcError(CodeInvalidParams, "invalid params: prompt[%d]: a resource link needs a uri", i)
			}
			name := b.Name
			if name == "" {
				name = b.URI
			}
			out = append(out, agentcore.TextBlock{Text: fmt.Sprintf("[@%s](%s)", name, b.URI)})
		case "resource":
			if b.Resource == nil || b.Resource.URI == "" {
				return nil, rpcError(CodeInvalidParams, "invalid params: prompt[%d]: a resource needs its contents and uri", i)
			}
			res := b.Resource
			switch {
			case res.Text != nil:
				out = append(out, agentcore.TextBlock{Text: fmt.Sprintf("<context ref=%q>\n%s\n</context>", res.URI, *res.Text)})
			case res.Blob != nil && strings.HasPrefix(res.MimeType, "image/"):
				out = append(out, agentcore.ImageBlock{Data: *res.Blob, MimeType: res.MimeType})
			case res.Blob != nil:
				out = append(out, agentcore.TextBlock{Text: fmt.Sprintf("<context ref=%q>(binary, %s, not shown)</context>", res.URI, res.MimeType)})
			default:
				return nil, rpcError(CodeInvalidParams, "invalid params: prompt[%d]: a resource needs text or blob", i)
			}
		case "audio":
			return nil, rpcError(CodeInvalidParams, "invalid params: prompt[%d]: audio is not supported", i)
		default:
			return nil, rpcError(CodeInvalidParams, "invalid params: prompt[%d]: unknown content type %q", i, b.Type)
		}
	}
	if len(out) == 0 {
		return nil, rpcError(CodeInvalidParams, "invalid params: the prompt is empty")
	}
	return out, nil
}

// expandCommand returns text with a leading "/name input" replaced by
// the command's Expand.
func (s *sess) expandCommand(text string) string {
	if !strings.HasPrefix(text, "/") {
		return text
	}
	name := text[1:]
	if i := strings.IndexAny(name, " \n"); i >= 0 {
		name = name[:i]
	}
	for _, c := range s.c.srv.opts.Commands {
		if c.Name == name && c.Expand != nil {
			return c.Expand(strings.TrimSpace(text[1+len(name):]))
		}
	}
	return text
}
