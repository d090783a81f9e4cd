package agentcore

import (
	"errors"
	"fmt"
	"slices"
)

// ErrNilBlock is wrapped by the error of a nil pointer used as a content
// block.
var ErrNilBlock = errors.New("agentcore: nil content block pointer: blocks are values (TextBlock{...}, not &TextBlock{...})")

// ValueBlocks returns blocks with every pointer to one of this package's
// block types replaced by the value it points to. Blocks are values
// ([ContentBlock]), but a pointer such as &TextBlock{...} satisfies the
// interface too, and every type switch on blocks (the loop's, the
// providers', a listener's) would miss it. A run applies ValueBlocks to the
// content of every message that enters it; a stream function or a tool
// that takes blocks from its caller may too. It returns blocks itself when
// none is a pointer, else a new slice. A nil pointer is an error wrapping
// [ErrNilBlock] that names its index.
func ValueBlocks(blocks []ContentBlock) ([]ContentBlock, error) {
	out, _, err := valueBlocks(blocks)
	return out, err
}

// valueBlocks is ValueBlocks, also reporting whether it made a new slice.
func valueBlocks(blocks []ContentBlock) ([]ContentBlock, bool, error) {
	i := slices.IndexFunc(blocks, isPointerBlock)
	if i < 0 {
		return blocks, false, nil
	}
	out := slices.Clone(blocks)
	for ; i < len(out); i++ {
		v, err := blockValue(out[i])
		if err != nil {
			return nil, false, fmt.Errorf("%w: block %d is a nil %T", ErrNilBlock, i, out[i])
		}
		out[i] = v
	}
	return out, true, nil
}

// isPointerBlock reports whether b is a pointer to a block type.
func isPointerBlock(b ContentBlock) bool {
	switch b.(type) {
	case *TextBlock, *ThinkingBlock, *ImageBlock, *ToolCall, *UnknownBlock:
		return true
	}
	return false
}

// blockValue returns the value b points to, or b itself when it is not a
// pointer; an error for a nil pointer.
func blockValue(b ContentBlock) (ContentBlock, error) {
	switch p := b.(type) {
	case *TextBlock:
		return pointee(p)
	case *ThinkingBlock:
		return pointee(p)
	case *ImageBlock:
		return pointee(p)
	case *ToolCall:
		return pointee(p)
	case *UnknownBlock:
		return pointee(p)
	}
	return b, nil
}

func pointee[T ContentBlock](p *T) (ContentBlock, error) {
	if p == nil {
		return nil, ErrNilBlock
	}
	return *p, nil
}

// valueMessage returns m, or a copy of it whose content holds values where
// m's holds pointers (see [ValueBlocks]). Messages of other roles are
// returned as they are.
func valueMessage(m Message) (Message, error) {
	switch m := m.(type) {
	case *UserMessage:
		return withValueBlocks(m, m.Content.Blocks, func(c *UserMessage, b []ContentBlock) { c.Content.Blocks = b })
	case *SystemMessage:
		return withValueBlocks(m, m.Content.Blocks, func(c *SystemMessage, b []ContentBlock) { c.Content.Blocks = b })
	case *AssistantMessage:
		return withValueBlocks(m, m.Content, func(c *AssistantMessage, b []ContentBlock) { c.Content = b })
	case *ToolResultMessage:
		return withValueBlocks(m, m.Content, func(c *ToolResultMessage, b []ContentBlock) { c.Content = b })
	}
	return m, nil
}

// withValueBlocks returns m, or a copy of it with set applied to the values
// of its blocks when they held pointers.
func withValueBlocks[M any](m *M, blocks []ContentBlock, set func(*M, []ContentBlock)) (Message, error) {
	out, changed, err := valueBlocks(blocks)
	if err != nil || !changed {
		return any(m).(Message), err
	}
	c := *m
	set(&c, out)
	return any(&c).(Message), nil
}

// ValueMessages returns msgs with the content of each standard message made
// values as [ValueBlocks] makes it: msgs itself when no message held a
// pointer block, else a new slice in which those messages are copies (msgs
// and its messages are never modified). Nil messages are kept. A nil block
// pointer is an error wrapping [ErrNilBlock] that names the message. The
// providers of this module apply it to a request's messages.
func ValueMessages(msgs []Message) ([]Message, error) {
	return valueContext("message", msgs)
}

// valueMessages returns msgs with each message as valueMessage makes it:
// msgs itself when none changed, else a new slice. A nil message is an
// error wrapping [ErrNilMessage], a nil block pointer one wrapping
// [ErrNilBlock]; both name the message as element i of what.
func valueMessages(what string, msgs []Message) ([]Message, error) {
	if err := checkMessages(what, msgs); err != nil {
		return nil, err
	}
	return valueContext(what, msgs)
}

// valueContext is valueMessages for a transcript, whose nil messages (which
// the loop skips) are kept.
func valueContext(what string, msgs []Message) ([]Message, error) {
	out := msgs
	for i, m := range msgs {
		if isNilMessage(m) {
			continue
		}
		v, err := valueMessage(m)
		if err != nil {
			return nil, fmt.Errorf("%s %d of %d: %w", what, i, len(msgs), err)
		}
		if v != m {
			if &out[0] == &msgs[0] {
				out = slices.Clone(msgs)
			}
			out[i] = v
		}
	}
	return out, nil
}

// valueEvent returns ev with the pointer blocks of its message made values:
// ev itself, its partial replaced by a copy, or, for a final event, a new
// event. A nil block pointer is an error wrapping [ErrNilBlock].
func valueEvent(ev AssistantEvent) (AssistantEvent, error) {
	p := ev.partial()
	if p == nil {
		return ev, nil
	}
	blocks, copied, err := valueBlocks(p.Content)
	if err != nil || !copied {
		return ev, err
	}
	c := *p
	c.Content = blocks
	switch e := ev.(type) {
	case *DoneEvent:
		return &DoneEvent{Reason: e.Reason, Message: &c}, nil
	case *ErrorEvent:
		return &ErrorEvent{Reason: e.Reason, Message: &c}, nil
	}
	ev.setPartial(&c)
	return ev, nil
}

// withoutNilBlocks returns blocks made values, nil block pointers left
// out.
func withoutNilBlocks(blocks []ContentBlock) []ContentBlock {
	out := make([]ContentBlock, 0, len(blocks))
	for _, b := range blocks {
		if v, err := blockValue(b); err == nil {
			out = append(out, v)
		}
	}
	return out
}

// contentIndex is the ContentIndex of a content event, -1 for the others.
func contentIndex(ev AssistantEvent) int {
	switch e := ev.(type) {
	case *TextStartEvent:
		return e.ContentIndex
	case *TextDeltaEvent:
		return e.ContentIndex
	case *TextEndEvent:
		return e.ContentIndex
	case *ThinkingStartEvent:
		return e.ContentIndex
	case *ThinkingDeltaEvent:
		return e.ContentIndex
	case *ThinkingEndEvent:
		return e.ContentIndex
	case *ToolCallStartEvent:
		return e.ContentIndex
	case *ToolCallDeltaEvent:
		return e.ContentIndex
	case *ToolCallEndEvent:
		return e.ContentIndex
	}
	return -1
}
