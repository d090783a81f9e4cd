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
	w      io.Writer
	wmu    sync.Mutex
	handle handler
	// notify serves notifications, on the reading goroutine.
	notify func(ctx context.Context, method string, params json.RawMessage)

	// inFlight counts the peer's requests being served.
	inFlight atomic.Int64

	mu      sync.Mutex
	nextID  int64
	pending map[string]chan wireMessage
	closed  bool

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

// run reads messages from r until it ends or ctx does, serving them, and
// returns once every handler it started has returned.
func (c *conn) run(ctx context.Context, r io.Reader, maxMessage int) error {
	ctx, c.cancel = context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
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

// dispatch serves one line.
func (c *conn) dispatch(ctx context.Context, line []byte, wg *sync.WaitGroup) {
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
		c.respond(idOf(line), nil, rpcError(CodeInvalidRequest, "invalid request: %v", err))
		return
	}
	hasID := len(m.ID) > 0 && string(m.ID) != "null"
	switch {
	case m.JSONRPC != "2.0":
		c.respond(m.ID, nil, rpcError(CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`))
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.inFlight.Add(-1)
			rep, err := c.serve(ctx, m.Method, m.Params)
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

// write sends one message, a line of JSON. A failed write ends the
// connection.
func (c *conn) write(msg any) error {
	data, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("acp: encoding a message: %w", err)
	}
	data = append(data, '\n')
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.isClosed() {
		return ErrClosed
	}
	if _, err := c.w.Write(data); err != nil {
		c.cancel()
		return fmt.Errorf("%w: %w", ErrClosed, err)
	}
	return nil
}

func (c *conn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
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

func newConn(w io.Writer, h handler, notify func(context.Context, string, json.RawMessage)) *conn {
	return &conn{w: w, handle: h, notify: notify, pending: map[string]chan wireMessage{}, done: make(chan struct{}), cancel: func() {}}
}
