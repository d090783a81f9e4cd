package agui

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/compaction"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/session"
)

// CustomType is the customType of the custom entries the handler writes
// to a thread's session file (see [Options].SessionDir): after each run,
// the AG-UI IDs of the messages it recorded, the held calls and the
// front-end calls waiting for their client. pi keeps such entries and
// leaves them out of the context.
const CustomType = "agui"

// sessions keeps the threads of a handler in session files in one folder.
type sessions struct {
	dir  string
	cwd  string
	opts session.Options

	mu    sync.Mutex
	paths map[string]string // thread ID -> its file, for the threads held
}

// newSessions returns the sessions of folder dir, or nil for "".
func newSessions(dir string, opts *session.Options) *sessions {
	if dir == "" {
		return nil
	}
	o := session.Options{}
	if opts != nil {
		o = *opts
	}
	o.ID, o.ReadOnly, o.ParentSession = "", false, ""
	cwd, _ := os.Getwd()
	return &sessions{dir: dir, cwd: cwd, opts: o, paths: map[string]string{}}
}

// sessionID is the session ID of a thread's file: the thread ID is the
// client's, so the file is named after its hash.
func sessionID(threadID string) string {
	sum := sha256.Sum256([]byte(threadID))
	return "agui-" + hex.EncodeToString(sum[:16])
}

// forget drops the file of a thread the handler no longer holds from the
// paths it knows, which stay as many as the threads held.
func (ss *sessions) forget(threadID string) {
	ss.mu.Lock()
	delete(ss.paths, threadID)
	ss.mu.Unlock()
}

// find returns the file of a thread, or "" when it has none yet: a scan
// of the folder the first time, then the path known while it names a
// file. A known file that was removed (an operator deleted it) is
// forgotten and the folder scanned again.
func (ss *sessions) find(threadID string) (string, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if p, ok := ss.paths[threadID]; ok {
		_, err := os.Stat(p)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("agui: sessions: %w", err)
		}
		delete(ss.paths, threadID)
	}
	entries, err := os.ReadDir(ss.dir)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("agui: sessions: %w", err)
	}
	suffix := "_" + sessionID(threadID) + ".jsonl"
	found := ""
	for _, e := range entries { // in name order: the newest last
		if !e.IsDir() && strings.HasSuffix(e.Name(), suffix) {
			found = filepath.Join(ss.dir, e.Name())
		}
	}
	if found != "" {
		ss.paths[threadID] = found
	}
	return found, nil
}

// threadFile is a thread's session file. It is open only while a request
// of the thread runs, so that another handler (a restarted server, another
// replica) may take the thread over between requests.
type threadFile struct {
	ss       *sessions
	threadID string

	mu        sync.Mutex
	unlock    func() error         // the thread's lock, while a request holds the thread
	s         *session.Session     // while a request holds the thread
	listeners []agentcore.Listener // s's layer's, while open
	hooks     agentcore.Hooks
	leaf      string // the leaf the handler left the file at

	// recorded and rrecorded are the AG-UI IDs written so far, by entry;
	// hold and pending what the last record said of the calls.
	recorded  map[string]string
	rrecorded map[string]string // entry "#" block index -> reasoning ID
	hold      []byte
	pending   []string
}

// file returns the thread's file, not open.
func (ss *sessions) file(threadID string) *threadFile {
	return &threadFile{ss: ss, threadID: threadID, recorded: map[string]string{}, rrecorded: map[string]string{}}
}

// lockPath is the path whose lock (<SessionDir>/agui-<hash>.lock) a
// handler holds for each request of a thread, from before it looks for
// the thread's file to after it closes it: of servers sharing the folder
// exactly one serves a thread at a time, its first request included,
// when the file does not exist yet and its own lock cannot be taken.
func (ss *sessions) lockPath(threadID string) string {
	return filepath.Join(ss.dir, sessionID(threadID))
}

// running is the error of a request for a thread another writer holds.
func running(threadID string) error {
	return &HTTPError{Status: http.StatusConflict, Message: fmt.Sprintf("thread %q is running elsewhere: its session file is locked", threadID)}
}

// open opens the thread's file for a request, making it when the thread
// has none. A thread or file another writer holds is a running thread:
// 409.
func (tf *threadFile) open() (err error) {
	if err := os.MkdirAll(tf.ss.dir, 0o755); err != nil {
		return fmt.Errorf("agui: sessions: %w", err)
	}
	unlock, err := session.LockPath(tf.ss.lockPath(tf.threadID))
	if errors.Is(err, session.ErrLocked) {
		return running(tf.threadID)
	}
	if err != nil {
		return fmt.Errorf("agui: thread %q: %w", tf.threadID, err)
	}
	defer func() {
		if err != nil {
			_ = unlock()
		}
	}()
	path, err := tf.ss.find(tf.threadID)
	if err != nil {
		return err
	}
	opts := tf.ss.opts
	var s *session.Session
	if path == "" {
		opts.ID = sessionID(tf.threadID)
		s, err = session.Create(tf.ss.dir, tf.ss.cwd, &opts)
	} else {
		s, err = session.Open(path, &opts)
	}
	if errors.Is(err, session.ErrLocked) {
		return running(tf.threadID)
	}
	if err != nil {
		return fmt.Errorf("agui: thread %q: %w", tf.threadID, err)
	}
	st := agentcore.NewStack([]agentcore.Layer{s.Layer()}, agentcore.Hooks{})
	tf.mu.Lock()
	tf.s, tf.listeners, tf.hooks, tf.unlock = s, st.Listeners(), st.Hooks(), unlock
	tf.mu.Unlock()
	return nil
}

// changed reports whether the open file moved on since the handler left
// it: another handler served the thread meanwhile.
func (tf *threadFile) changed() bool {
	tf.mu.Lock()
	defer tf.mu.Unlock()
	return tf.s != nil && tf.s.Leaf() != tf.leaf
}

// close closes the file at the end of a request and gives the thread's
// lock up.
func (tf *threadFile) close() error {
	tf.mu.Lock()
	s, unlock := tf.s, tf.unlock
	tf.s, tf.listeners, tf.hooks, tf.unlock = nil, nil, agentcore.Hooks{}, nil
	if s != nil {
		tf.leaf = s.Leaf()
		if s.File() != "" {
			tf.ss.mu.Lock()
			if _, err := os.Stat(s.File()); err == nil {
				tf.ss.paths[tf.threadID] = s.File()
			}
			tf.ss.mu.Unlock()
		}
	}
	tf.mu.Unlock()
	var err error
	if s != nil {
		err = s.Close()
	}
	if unlock != nil {
		err = errors.Join(err, unlock())
	}
	return err
}

// Install is the layer that records the thread's Agent in its file: the
// session's own layer ([session.Session.Layer]) while a request holds the
// file, and the entry that records each message.
func (tf *threadFile) Install(s *agentcore.Setup) {
	s.AddHooks(agentcore.Hooks{
		ConvertToLLM: func(_ context.Context, messages []agentcore.Message) ([]agentcore.Message, error) {
			return session.ConvertMessages(messages), nil
		},
		PrepareRequest: func(ctx context.Context, req agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
			tf.mu.Lock()
			h := tf.hooks.PrepareRequest
			tf.mu.Unlock()
			if h == nil {
				return nil, nil
			}
			return h(ctx, req)
		},
	})
	s.Subscribe(tf.listen)
}

// listen passes ev to the session's layer.
func (tf *threadFile) listen(ctx context.Context, ev agentcore.AgentEvent) {
	tf.mu.Lock()
	defer tf.mu.Unlock()
	for _, l := range tf.listeners {
		l(ctx, ev)
	}
}

// stored is what the handler's custom entries say of a thread.
type stored struct {
	ThreadID  string            `json:"threadId"`
	IDs       map[string]string `json:"ids,omitempty"`
	Reasoning map[string]string `json:"reasoning,omitempty"`
	Pending   []string          `json:"pending,omitempty"`
	Hold      json.RawMessage   `json:"hold,omitempty"`
}

// restore fills opts from the open file: its context as the transcript
// after the leading system messages of opts (when the file holds any),
// its thinking level, and the file's layer after opts' layers. It
// returns what the file says of the thread, for [threadFile.adopt].
func (tf *threadFile) restore(opts agentcore.Options) (agentcore.Options, session.Context, stored) {
	tf.mu.Lock()
	s := tf.s
	tf.mu.Unlock()
	ctx := s.Context()
	var st stored
	st.IDs, st.Reasoning = map[string]string{}, map[string]string{}
	// The IDs are read from every record of the file (entry IDs are
	// unique in it): a branch the session started for a replaced message
	// holds entries recorded before it. The calls are the last record's
	// on the leaf's path.
	onPath := map[string]bool{}
	for _, e := range s.Path(s.Leaf()) {
		onPath[e.Base().ID] = true
	}
	for _, e := range s.Entries() {
		c, ok := e.(*session.CustomEntry)
		if !ok || c.CustomType != CustomType {
			continue
		}
		var one stored
		if json.Unmarshal(c.Data, &one) != nil {
			continue
		}
		for k, v := range one.IDs {
			st.IDs[k] = v
		}
		for k, v := range one.Reasoning {
			st.Reasoning[k] = v
		}
		if onPath[c.ID] {
			st.Pending, st.Hold = one.Pending, one.Hold
		}
	}
	if len(ctx.Messages) > 0 {
		n := 0
		for n < len(opts.Messages) && isSystemMessage(opts.Messages[n]) {
			n++
		}
		opts.Messages = append(slices.Clip(opts.Messages[:n]), ctx.Messages...)
		if ctx.ThinkingLevel != "" && ctx.ThinkingLevel != agentcore.ThinkingOff {
			opts.ThinkingLevel = ctx.ThinkingLevel
		}
	}
	opts.Layers = append(slices.Clip(opts.Layers), tf)
	tf.leaf = s.Leaf()
	return opts, ctx, st
}

func isSystemMessage(m agentcore.Message) bool {
	_, ok := m.(*agentcore.SystemMessage)
	return ok
}

// adopt gives the thread t, made from options [threadFile.restore]
// filled, what its file says: the AG-UI IDs of its messages, the calls
// its Gate held, the front-end calls waiting for their client.
func (tf *threadFile) adopt(t *thread, ctx session.Context, st stored) error {
	t.file = tf
	for i, m := range ctx.Messages {
		entry := ctx.EntryIDs[i]
		if id, ok := st.IDs[entry]; ok {
			t.ids[m] = id
			tf.recorded[entry] = id
		}
		if a, ok := m.(*agentcore.AssistantMessage); ok {
			for j := range a.Content {
				key := entry + "#" + strconv.Itoa(j)
				if rid, ok := st.Reasoning[key]; ok {
					t.rids[blockKey{m, j}] = rid
					tf.rrecorded[key] = rid
				}
			}
		}
	}
	t.pending, tf.pending = slices.Clone(st.Pending), slices.Clone(st.Pending)
	t.ran = len(ctx.Messages) > 0
	if len(st.Hold) == 0 || t.gate == nil {
		return nil
	}
	var hs hold.State
	if err := json.Unmarshal(st.Hold, &hs); err != nil {
		return fmt.Errorf("agui: thread %q: the held calls in its session file: %w", tf.threadID, err)
	}
	if err := t.gate.Restore(hs); err != nil {
		return fmt.Errorf("agui: thread %q: the held calls in its session file: %w", tf.threadID, err)
	}
	tf.hold = bytes.Clone(st.Hold)
	return nil
}

// record appends, after a run, what the file does not say yet of the
// thread: the AG-UI IDs of the messages it recorded, the Gate's held
// calls and the front-end calls waiting for their client.
func (tf *threadFile) record(t *thread) error {
	tf.mu.Lock()
	defer tf.mu.Unlock()
	if tf.s == nil {
		return nil
	}
	st := stored{ThreadID: tf.threadID, IDs: map[string]string{}, Reasoning: map[string]string{}}
	for m, entry := range aligned(t.agent.Messages(), tf.s.Context()) {
		if id, ok := t.ids[m]; ok && tf.recorded[entry] != id {
			st.IDs[entry] = id
		}
		if a, ok := m.(*agentcore.AssistantMessage); ok {
			for j, b := range a.Content {
				if _, thinking := b.(agentcore.ThinkingBlock); !thinking {
					continue
				}
				key := entry + "#" + strconv.Itoa(j)
				if rid, ok := t.rids[blockKey{m, j}]; ok && tf.rrecorded[key] != rid {
					st.Reasoning[key] = rid
				}
			}
		}
	}
	var holding []byte
	if t.gate != nil {
		if s := t.gate.State(); len(s.Calls) > 0 {
			data, err := json.Marshal(s)
			if err != nil {
				return fmt.Errorf("agui: thread %q: the held calls: %w", tf.threadID, err)
			}
			holding = data
		}
	}
	if len(st.IDs) == 0 && len(st.Reasoning) == 0 && bytes.Equal(holding, tf.hold) && slices.Equal(t.pending, tf.pending) {
		return nil
	}
	st.Hold, st.Pending = holding, t.pending
	data, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("agui: thread %q: %w", tf.threadID, err)
	}
	if _, err := tf.s.Append(&session.CustomEntry{CustomType: CustomType, Data: data}); err != nil {
		return fmt.Errorf("agui: thread %q: %w", tf.threadID, err)
	}
	for k, v := range st.IDs {
		tf.recorded[k] = v
	}
	for k, v := range st.Reasoning {
		tf.rrecorded[k] = v
	}
	tf.hold, tf.pending = holding, slices.Clone(t.pending)
	return nil
}

// aligned pairs the messages of a transcript with the entries of ctx,
// the session's context that records it, from the end: the session's
// layer keeps the context equal to the transcript, but for the leading
// system messages no event recorded (and what a compaction's entry stands
// for). The pairing stops at the first pair whose roles differ.
func aligned(transcript []agentcore.Message, ctx session.Context) iter.Seq2[agentcore.Message, string] {
	return func(yield func(agentcore.Message, string) bool) {
		i, j := len(transcript)-1, len(ctx.Messages)-1
		for ; i >= 0 && j >= 0; i, j = i-1, j-1 {
			if transcript[i].Role() != ctx.Messages[j].Role() || !yield(transcript[i], ctx.EntryIDs[j]) {
				return
			}
		}
	}
}

// RecordCompactions returns a [compaction.Listener], for the
// [compaction.Options].OnEvent of a Compactor among the layers
// [Options].NewAgent returns, that records each compaction that succeeded
// in the session file of the thread whose run compacted (see
// [session.Session.RecordCompaction]), then calls next when not nil. A
// handler with SessionDir needs it for its threads to compact: the
// session file records a compaction as pi's compaction entry, not as a
// transcript it cannot hold. Outside a run of such a handler it only
// calls next.
func RecordCompactions(next compaction.Listener) compaction.Listener {
	return func(ctx context.Context, ev compaction.Event) {
		if end, ok := ev.(*compaction.EndEvent); ok && end.Result != nil {
			if r := relayFrom(ctx); r != nil && r.thread.file != nil {
				r.thread.file.recordCompaction(end.Result)
			}
		}
		if next != nil {
			next(ctx, ev)
		}
	}
}

// recordCompaction records a compaction in the open file. A failed write
// shows at the next record of the transcript, which the file then cannot
// hold: the session's layer fails the run's next request.
func (tf *threadFile) recordCompaction(r *compaction.Result) {
	tf.mu.Lock()
	defer tf.mu.Unlock()
	if tf.s != nil {
		_, _ = tf.s.RecordCompaction(r)
	}
}
