package provider

import (
	"encoding/json"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/partialjson"
)

// Builder builds the message of one response: it opens, grows and ends
// its text, thinking and tool-call blocks, pushing each block's events to
// the stream, and charges their content to the response's budget. It is
// used on the goroutine ranging over the stream.
//
// Content that does not fit the budget is not added (the method reports
// false) and the read loop ends the response with the budget's error. A
// method also reports false once the consumer stopped ([Builder.Stopped]):
// the decoder then returns, and [Read] stops.
type Builder struct {
	// W is the stream's writer; Out the message built, its Content the
	// blocks (each a value: a method replaces it with the grown one).
	W   *agentcore.StreamWriter
	Out *agentcore.AssistantMessage
	// Budget is the content the response may still build.
	Budget *limit.Budget
	// open are the open blocks, in content order.
	open []*Block
}

// NewBuilder returns the builder of c's message, with a budget of
// maxBytes ([limit.NewBudget]).
func NewBuilder(c Call, maxBytes int64) *Builder {
	return &Builder{W: c.W, Out: c.Out, Budget: limit.NewBudget(maxBytes)}
}

// Block is an open content block: its index in the message's content, its
// text so far (strings.Builder never changes bytes it handed out, so
// each partial shares them) or, for a tool call, its arguments.
type Block struct {
	// Index is the block's index in the message's content.
	Index int
	text  strings.Builder
	args  partialjson.ArgumentsStream
	// size is the content the budget was charged for.
	size int
	kind kind
	// whole marks a tool call that came whole: its arguments are final.
	whole bool
}

type kind uint8

const (
	kindText kind = iota
	kindThinking
	kindToolCall
)

// Text returns the block's text so far: a text or thinking block's, or a
// tool call's raw arguments.
func (blk *Block) Text() string {
	if blk.kind == kindToolCall {
		return blk.args.Text()
	}
	return blk.text.String()
}

// IsThinking reports whether blk is a thinking block.
func (blk *Block) IsThinking() bool { return blk.kind == kindThinking }

// Stopped reports whether the consumer stopped reading (or the stream
// ended): the one flag of it, the writer's.
func (b *Builder) Stopped() bool { return b.W.Ended() }

// Take charges n bytes of content to the budget (an ID, a signature);
// false when they do not fit.
func (b *Builder) Take(n int) bool { return b.Budget.Take(n) }

// Fits charges the budget for blk's content growing to n bytes and
// reports whether it fits; a block's charge never shrinks.
func (b *Builder) Fits(blk *Block, n int) bool {
	if n <= blk.size {
		return true
	}
	if !b.Budget.Take(n - blk.size) {
		return false
	}
	blk.size = n
	return true
}

// openBlock appends block to the content as blk, a new block of kind k
// (nil means a fresh one), and pushes its start event.
func (b *Builder) openBlock(blk *Block, k kind, block agentcore.ContentBlock) *Block {
	if blk == nil {
		blk = &Block{}
	}
	blk.Index, blk.kind = len(b.Out.Content), k
	b.Out.Content = append(b.Out.Content, block)
	b.open = append(b.open, blk)
	var ev agentcore.AssistantEvent
	switch blk.kind {
	case kindText:
		ev = &agentcore.TextStartEvent{ContentIndex: blk.Index, Partial: b.Out}
	case kindThinking:
		ev = &agentcore.ThinkingStartEvent{ContentIndex: blk.Index, Partial: b.Out}
	default:
		ev = &agentcore.ToolCallStartEvent{ContentIndex: blk.Index, Partial: b.Out}
	}
	b.W.Push(ev)
	return blk
}

// Open opens a text or thinking block holding block (its text, the
// block's first, is charged to the budget) and pushes its start. It
// returns nil when the text does not fit.
func (b *Builder) Open(block agentcore.ContentBlock) *Block {
	k, text := kindText, ""
	switch block := block.(type) {
	case agentcore.TextBlock:
		text = block.Text
	case agentcore.ThinkingBlock:
		k, text = kindThinking, block.Thinking
	}
	if !b.Budget.Take(len(text)) {
		return nil
	}
	blk := b.openBlock(&Block{size: len(text)}, k, block)
	blk.text.WriteString(text)
	return blk
}

// OpenToolCall opens a tool-call block holding call and pushes its
// start. args is the arguments text so far (no delta event is pushed
// for it): when it is not "", the block shows its preview, else
// call.Arguments ({} when nil). Its ID, name and args are charged to the
// budget; nil when they do not fit.
func (b *Builder) OpenToolCall(call agentcore.ToolCall, args string) *Block {
	if !b.Budget.Take(len(call.ID) + len(call.Name)) {
		return nil
	}
	blk := &Block{kind: kindToolCall}
	if !b.Fits(blk, len(args)) {
		return nil
	}
	switch {
	case args != "":
		call.Arguments = blk.args.Append(args)
	case call.Arguments == nil:
		call.Arguments = json.RawMessage("{}")
	}
	return b.openBlock(blk, kindToolCall, call)
}

// WholeToolCall adds a tool call that came whole, its Arguments final
// and their JSON as its one delta, and pushes its start, delta and end;
// false when its ID, name and arguments do not fit.
func (b *Builder) WholeToolCall(call agentcore.ToolCall) bool {
	if !b.Budget.Take(len(call.Arguments)) {
		return false
	}
	blk := b.OpenToolCall(call, "")
	if blk == nil {
		return false
	}
	blk.whole = true
	b.W.ToolCallDelta(blk.Index, string(call.Arguments), b.Out)
	return b.End(blk)
}

// AppendText appends delta to an open text or thinking block and pushes
// its delta event; the rest of the block (its signature) is kept as the
// message holds it.
func (b *Builder) AppendText(blk *Block, delta string) bool {
	if !b.Fits(blk, blk.size+len(delta)) {
		return false
	}
	blk.text.WriteString(delta)
	b.setText(blk, blk.text.String())
	if blk.kind == kindThinking {
		return b.W.ThinkingDelta(blk.Index, delta, b.Out)
	}
	return b.W.TextDelta(blk.Index, delta, b.Out)
}

// setText sets the text of blk's block in the message.
func (b *Builder) setText(blk *Block, text string) {
	switch block := b.Out.Content[blk.Index].(type) {
	case agentcore.TextBlock:
		block.Text = text
		b.Out.Content[blk.Index] = block
	case agentcore.ThinkingBlock:
		block.Thinking = text
		b.Out.Content[blk.Index] = block
	}
}

// SetText replaces the text of an open text or thinking block, pushing
// no event (the text a block's end event gives); false when it does not
// fit.
func (b *Builder) SetText(blk *Block, text string) bool {
	if !b.Fits(blk, len(text)) {
		return false
	}
	blk.text.Reset()
	blk.text.WriteString(text)
	b.setText(blk, text)
	return true
}

// AppendArguments appends piece to an open tool call's arguments, shows
// the arguments so far ([partialjson.ArgumentsStream]) and pushes its
// delta event, with piece as the delta even when it is "".
func (b *Builder) AppendArguments(blk *Block, piece string) bool {
	if !b.Fits(blk, blk.size+len(piece)) {
		return false
	}
	b.setArguments(blk, blk.args.Append(piece))
	return b.W.ToolCallDelta(blk.Index, piece, b.Out)
}

// ReplaceArguments takes the complete arguments text of an open tool
// call ([partialjson.ArgumentsStream.Replace]) and pushes a delta event
// of what it added, when it added something.
func (b *Builder) ReplaceArguments(blk *Block, text string) bool {
	if !b.Fits(blk, blk.size+max(0, len(text)-len(blk.args.Text()))) {
		return false
	}
	delta, _, args := blk.args.Replace(text)
	b.setArguments(blk, args)
	if delta == "" {
		return !b.Stopped()
	}
	return b.W.ToolCallDelta(blk.Index, delta, b.Out)
}

// SetArguments takes the complete arguments text of an open tool call,
// as [Builder.ReplaceArguments] does, pushing no event.
func (b *Builder) SetArguments(blk *Block, text string) bool {
	if !b.Fits(blk, blk.size+max(0, len(text)-len(blk.args.Text()))) {
		return false
	}
	_, _, args := blk.args.Replace(text)
	b.setArguments(blk, args)
	return true
}

func (b *Builder) setArguments(blk *Block, args json.RawMessage) {
	call := b.Out.Content[blk.Index].(agentcore.ToolCall)
	call.Arguments = args
	b.Out.Content[blk.Index] = call
}

// End ends an open block and pushes its end event: a text or thinking
// block with its text as the message holds it, a tool call with its
// arguments parsed for good ([partialjson.ArgumentsStream.Finish] of the
// text appended; text that is no JSON object sets ArgumentsError).
func (b *Builder) End(blk *Block) bool {
	for i := len(b.open) - 1; i >= 0; i-- {
		if b.open[i] == blk {
			b.open = append(b.open[:i], b.open[i+1:]...)
			break
		}
	}
	var ev agentcore.AssistantEvent
	switch block := b.Out.Content[blk.Index].(type) {
	case agentcore.TextBlock:
		ev = &agentcore.TextEndEvent{ContentIndex: blk.Index, Content: block.Text, Partial: b.Out}
	case agentcore.ThinkingBlock:
		ev = &agentcore.ThinkingEndEvent{ContentIndex: blk.Index, Content: block.Thinking, Partial: b.Out}
	case agentcore.ToolCall:
		if !blk.whole {
			block.Arguments, block.ArgumentsError = blk.args.Finish()
			b.Out.Content[blk.Index] = block
		}
		ev = &agentcore.ToolCallEndEvent{ContentIndex: blk.Index, ToolCall: block, Partial: b.Out}
	}
	return b.W.Push(ev)
}

// EndAll ends every open block, in content order; false when the
// consumer stopped.
func (b *Builder) EndAll() bool {
	open := b.open
	b.open = nil
	for _, blk := range open {
		b.open = append(b.open[:0], blk)
		if !b.End(blk) {
			return false
		}
	}
	return true
}
