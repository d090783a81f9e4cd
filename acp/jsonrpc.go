package acp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
)

// The JSON-RPC 2.0 error codes ACP uses.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	CodeAuthRequired   = -32000
	CodeNotFound       = -32002
)

// Error is a JSON-RPC error: the error of a request the server refused or
// failed, and the error a client answered one of the server's requests
// with. Its Code is one of the Code constants or another the peer chose.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error returns "acp: <message> (code <code>)".
func (e *Error) Error() string { return fmt.Sprintf("acp: %s (code %d)", e.Message, e.Code) }

func rpcError(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrClosed is returned by a request to the client once the connection
// has ended (the client closed its end, or writing to it failed).
var ErrClosed = errors.New("acp: connection closed")

// wireMessage is any JSON-RPC message as read: a request (ID and Method),
// a notification (Method only) or a response (ID and Result or Error).
type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// reply is what a request handler returns: the result, and work to do
// once the response is written (the notifications that follow a
// session/new, say).
type reply struct {
	result any
	after  func()
}

// handler serves one request or notification; for a notification the
// reply is dropped. ctx ends when the connection does.
type handler func(ctx context.Context, method string, params json.RawMessage) (reply, error)

// conn is one JSON-RPC 2.0 peer over newline-delimited JSON: requests in
// both directions, each request of the peer served on a goroutine of its
// own, notifications served in order on the reading goroutine.
type conn struct {
	w io.Writer
	// wq hands a message to the writing goroutine, which alone writes to
	// w; wexit is closed when it returns.
	wq     chan writeReq
	wexit  chan struct{}
	handle handler
	// notify serves notifications, on the reading goroutine.
	notify func(ctx context.Context, method string, params json.RawMessage)

	// inFlight counts the peer's requests being served, inFlightBytes
	// the size of their messages; maxInFlightBytes bounds the latter.
	inFlight         atomic.Int64
	inFlightBytes    atomic.Int64
	maxInFlightBytes int64
	// seq numbers the messages read, in order; only the reading goroutine
	// touches it.
	seq uint64

	mu      sync.Mutex
	nextID  int64
	pending map[string]chan wireMessage
	closed  bool
	// writing is set while the writing goroutine is in w.Write.
	writing bool

	// done is closed when the connection ends.
	done   chan struct{}
	cancel context.CancelFunc
}

// maxInFlight bounds the peer's requests served at once: one more is
// refused at once, so that a flood takes no more than that many
// goroutines and the reader never waits (a cancel still gets through).
const maxInFlight = 256

// defaultMaxMessage bounds one message read from the peer.
const defaultMaxMessage = 64 << 20

// defaultMaxInFlightBytes bounds the size of the peer's requests served
// at once.
const defaultMaxInFlightBytes = 256 << 20

// run reads messages from r until it ends or ctx does, serving them, and
// returns once every handler it started has returned.
//
// The writing goroutine is joined too, unless it is in a Write when the
// connection ends: a peer that stops reading must not keep run from
// returning. That goroutine then returns once the Write does.
func (c *conn) run(ctx context.Context, r io.Reader, maxMessage int) error {
	ctx, c.cancel = context.WithCancel(ctx)
	go c.writeLoop()
	var wg sync.WaitGroup
	defer func() {
		wg.Wait()
		if !c.inWrite() {
			<-c.wexit
		}
	}()
	defer c.cancel()
	defer c.close()
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		readErr <- readLines(ctx, r, maxMessage, lines)
	}()
	for {
		select {
		case <-ctx.Done():
			// A reader blocked in Read returns when it is closed.
			if cl, ok := r.(io.Closer); ok {
				_ = cl.Close()
			}
			return ctx.Err()
		case err := <-readErr:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case line := <-lines:
			c.dispatch(ctx, line, &wg)
		}
	}
}

// readLines sends each non-empty line of r to out. A line over max is
// skipped up to its end and reported as a parse error to the peer by the
// caller seeing an over-long marker (nil line).
func readLines(ctx context.Context, r io.Reader, max int, out chan<- []byte) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, err := readLine(br, max)
		if len(line) > 0 || tooLong {
			if tooLong {
				line = nil
			}
			select {
			case out <- line:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line without its end, at most max bytes of it kept;
// tooLong reports a longer one, read to its end and dropped.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSpace(line), tooLong, err
	}
}

// seqKey keys, in a handler's ctx, the number of the message it serves.
type seqKey struct{}

// seqOf returns the number of the message ctx's handler serves: messages
// are numbered as they are read, so a handler learns which of two
// messages came first even when the later one was served first.
func seqOf(ctx context.Context) uint64 {
	n, _ := ctx.Value(seqKey{}).(uint64)
	return n
}

// dispatch serves one line.
func (c *conn) dispatch(ctx context.Context, line []byte, wg *sync.WaitGroup) {
	c.seq++
	ctx = context.WithValue(ctx, seqKey{}, c.seq)
	if line == nil {
		c.respond(nil, nil, rpcError(CodeParseError, "message too large"))
		return
	}
	var m wireMessage
	if err := json.Unmarshal(line, &m); err != nil {
		var probe any
		if json.Unmarshal(line, &probe) != nil {
			c.respond(nil, nil, rpcError(CodeParseError, "parse error: %v", err))
			return
		}
		e := rpcError(CodeInvalidRequest, "invalid request: %v", err)
		if !c.failAnswered(line, e) {
			c.respond(idOf(line), nil, e)
		}
		return
	}
	hasID := len(m.ID) > 0 && string(m.ID) != "null"
	switch {
	case m.JSONRPC != "2.0":
		e := rpcError(CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
		if !c.failAnswered(line, e) {
			c.respond(m.ID, nil, e)
		}
	case m.Method != "" && hasID:
		if !validID(m.ID) {
			c.respond(nil, nil, rpcError(CodeInvalidRequest, "invalid request: the id must be a string or a number"))
			return
		}
		if c.inFlight.Add(1) > maxInFlight {
			c.inFlight.Add(-1)
			c.respond(m.ID, nil, rpcError(CodeInternalError, "too many requests in progress (%d); retry when some are answered", maxInFlight))
			return
		}
		size := int64(len(line))
		if n := c.inFlightBytes.Add(size); n > c.maxInFlightBytes && n > size {
			c.inFlightBytes.Add(-size)
			c.inFlight.Add(-1)
			c.respond(m.ID, nil, rpcError(CodeInternalError, "requests in progress too large (over %d bytes); retry when some are answered", c.maxInFlightBytes))
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.inFlight.Add(-1)
			rep, err := c.serve(ctx, m.Method, m.Params)
			// The request is served: its answer may come back to one.
			c.inFlightBytes.Add(-size)
			c.respond(m.ID, rep.result, err)
			if err == nil && rep.after != nil {
				rep.after()
			}
		}()
	case m.Method != "":
		if c.notify != nil {
			c.notify(ctx, m.Method, m.Params)
		}
	case hasID && (m.Result != nil || m.Error != nil):
		c.mu.Lock()
		ch := c.pending[string(m.ID)]
		delete(c.pending, string(m.ID))
		c.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	default:
		c.respond(m.ID, nil, rpcError(CodeInvalidRequest, "invalid request: neither a request, a notification nor a response"))
	}
}

// failAnswered fails with e the server's request that line, a malformed
// message with an id and no method, meant to answer; it reports whether
// there was one waiting. The peer gets no answer to its answer.
func (c *conn) failAnswered(line []byte, e *Error) bool {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil || m.Method != nil || len(m.ID) == 0 {
		return false
	}
	c.mu.Lock()
	ch := c.pending[string(m.ID)]
	delete(c.pending, string(m.ID))
	c.mu.Unlock()
	if ch == nil {
		return false
	}
	ch <- wireMessage{ID: m.ID, Error: e}
	return true
}

// serve runs the handler, turning a panic into an internal error.
func (c *conn) serve(ctx context.Context, method string, params json.RawMessage) (rep reply, err error) {
	defer func() {
		if p := recover(); p != nil {
			rep, err = reply{}, rpcError(CodeInternalError, "internal error: %v", p)
		}
	}()
	return c.handle(ctx, method, params)
}

// idOf returns the id of a message that is an object, or nil.
func idOf(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) == nil && validID(m.ID) {
		return m.ID
	}
	return nil
}

// validID reports whether id is a string or a number.
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	if id[0] == '"' {
		var s string
		return json.Unmarshal(id, &s) == nil
	}
	var n json.Number
	return json.Unmarshal(id, &n) == nil
}

// respond writes the response to the request id (null when unknown).
func (c *conn) respond(id json.RawMessage, result any, err error) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	msg := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result,omitempty"`
		Error   *Error          `json:"error,omitempty"`
	}{JSONRPC: "2.0", ID: id}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = rpcError(CodeInternalError, "%s", err.Error())
		}
		msg.Error = e
	} else {
		if result == nil {
			result = struct{}{}
		}
		msg.Result = result
	}
	_ = c.write(msg)
}

// writeReq is one message for the writing goroutine; the Write's error
// comes back on errc.
type writeReq struct {
	data []byte
	errc chan error
}

// write sends one message, a line of JSON, through the writing goroutine.
// It returns once the message is written, or with [ErrClosed] once the
// connection has ended, even while a Write blocks (a peer that stopped
// reading). A failed write ends the connection.
func (c *conn) write(msg any) error {
	data, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("acp: encoding a message: %w", err)
	}
	req := writeReq{data: append(data, '\n'), errc: make(chan error, 1)}
	select {
	case c.wq <- req:
	case <-c.done:
		return ErrClosed
	}
	select {
	case err := <-req.errc:
		if err != nil {
			return fmt.Errorf("%w: %w", ErrClosed, err)
		}
		return nil
	case <-c.done:
		return ErrClosed
	}
}

// writeLoop writes the messages handed to it, one at a time, until the
// connection ends; it writes nothing once it has.
func (c *conn) writeLoop() {
	defer close(c.wexit)
	for {
		select {
		case <-c.done:
			return
		case req := <-c.wq:
			c.mu.Lock()
			if c.closed {
				c.mu.Unlock()
				req.errc <- ErrClosed
				return
			}
			c.writing = true
			c.mu.Unlock()
			_, err := c.w.Write(req.data)
			c.mu.Lock()
			c.writing = false
			c.mu.Unlock()
			if err != nil {
				c.cancel()
			}
			req.errc <- err
		}
	}
}

// inWrite reports whether the writing goroutine is in a Write. Once the
// connection has ended, one that is not writes nothing more and returns.
func (c *conn) inWrite() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writing
}

// notifyPeer sends a notification.
func (c *conn) notifyPeer(method string, params any) error {
	return c.write(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", method, params})
}

// call sends a request and decodes its result into out (nil drops it).
// It returns when the answer arrives, ctx ends (the request is then
// abandoned: its answer is dropped) or the connection does ([ErrClosed]).
func (c *conn) call(ctx context.Context, method string, params, out any) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return ErrClosed
	}
	c.nextID++
	id := strconv.FormatInt(c.nextID, 10)
	ch := make(chan wireMessage, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}
	err := c.write(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  any             `json:"params"`
	}{"2.0", json.RawMessage(id), method, params})
	if err != nil {
		forget()
		return err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return m.Error
		}
		if out != nil {
			if err := json.Unmarshal(m.Result, out); err != nil {
				return fmt.Errorf("acp: the client's answer to %s: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		forget()
		return ctx.Err()
	case <-c.done:
		forget()
		return ErrClosed
	}
}

// close ends the connection: pending and later requests fail with
// [ErrClosed], writes are refused.
func (c *conn) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.closed = true
		close(c.done)
	}
}

func newConn(w io.Writer, maxInFlightBytes int, h handler, notify func(context.Context, string, json.RawMessage)) *conn {
	return &conn{w: w, maxInFlightBytes: int64(maxInFlightBytes), wq: make(chan writeReq), wexit: make(chan struct{}), handle: h, notify: notify,
		pending: map[string]chan wireMessage{}, done: make(chan struct{}), cancel: func() {}}
}
