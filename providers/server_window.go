package providers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/pi-go/agentcore/internal/limit"
)

// ErrNoContextWindow is returned, wrapped, by [ServerContextWindow] and
// [LookupModel] when a server does not report the context window of a
// model (or cannot be asked).
var ErrNoContextWindow = errors.New("providers: the server reports no context window")

// MaxServerInfoBytes is the most [ServerContextWindow] reads of one
// response; a longer one is not read further and counts as no report.
const MaxServerInfoBytes = 4 << 20

// ServerOptions configure [ServerContextWindow]. The zero value, or nil,
// uses [http.DefaultClient] and sends no key.
type ServerOptions struct {
	// HTTPClient sends the requests; nil means [http.DefaultClient].
	HTTPClient *http.Client
	// APIKey, when not empty, is sent as a bearer token, as a server
	// started with --api-key (llama.cpp, vLLM) wants it.
	APIKey string
}

// ServerContextWindow asks the OpenAI-compatible server whose API root is
// baseURL ("http://localhost:8080/v1") for the context window, in tokens,
// that it serves the model id with. It asks, in this order, and returns
// the first answer:
//
//   - GET baseURL/models: vLLM's max_model_len of the entry whose id is id;
//   - GET /props at the server's root (baseURL without its trailing /v1):
//     llama.cpp's n_ctx, under default_generation_settings (newer
//     servers) or at the top (older ones), the window of one slot;
//   - POST /api/show at the root with {"model": id}: Ollama's num_ctx
//     when the model's parameters set one, else its model_info
//     "<architecture>.context_length" (the model's trained window; a
//     server started with a smaller OLLAMA_CONTEXT_LENGTH truncates
//     prompts to that one).
//
// Each response is read up to [MaxServerInfoBytes]. When none of them
// reports a window the error wraps [ErrNoContextWindow] and says what
// each answered; when ctx ends first it wraps ctx's error too.
func ServerContextWindow(ctx context.Context, baseURL, id string, opts *ServerOptions) (int, error) {
	if opts == nil {
		opts = &ServerOptions{}
	}
	p := prober{ctx: ctx, opts: opts}
	base := strings.TrimRight(baseURL, "/")
	root := strings.TrimSuffix(base, "/v1")
	probes := []struct {
		what string
		ask  func() (int, error)
	}{
		{"GET " + base + "/models", func() (int, error) { return p.vllmModels(base+"/models", id) }},
		{"GET " + root + "/props", func() (int, error) { return p.llamaProps(root + "/props") }},
		{"POST " + root + "/api/show", func() (int, error) { return p.ollamaShow(root+"/api/show", id) }},
	}
	var reasons []string
	for _, probe := range probes {
		n, err := probe.ask()
		if err == nil && n > 0 {
			return n, nil
		}
		if err == nil {
			err = errors.New("no window in the response")
		}
		if ctx.Err() != nil {
			return 0, fmt.Errorf("%w for %s at %s: %w", ErrNoContextWindow, limit.Quote(id), baseURL, ctx.Err())
		}
		reasons = append(reasons, probe.what+": "+err.Error())
	}
	return 0, fmt.Errorf("%w for %s at %s (%s); give the model's ContextWindow yourself",
		ErrNoContextWindow, limit.Quote(id), baseURL, strings.Join(reasons, "; "))
}

// prober sends the requests of one [ServerContextWindow] call.
type prober struct {
	ctx  context.Context
	opts *ServerOptions
}

// get sends a request and decodes its JSON answer into v.
func (p prober) get(method, url string, body []byte, v any) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(p.ctx, method, url, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if p.opts.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.opts.APIKey)
	}
	client := p.opts.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxServerInfoBytes+1))
	if err != nil {
		return err
	}
	if len(data) > MaxServerInfoBytes {
		return fmt.Errorf("response longer than %d bytes", MaxServerInfoBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return errors.New("not a JSON answer")
	}
	return nil
}

func (p prober) vllmModels(url, id string) (int, error) {
	var list struct {
		Data []struct {
			ID          string      `json:"id"`
			MaxModelLen json.Number `json:"max_model_len"`
		} `json:"data"`
	}
	if err := p.get(http.MethodGet, url, nil, &list); err != nil {
		return 0, err
	}
	for _, m := range list.Data {
		if m.ID == id {
			return positive(m.MaxModelLen)
		}
	}
	return 0, errors.New("the model is not listed")
}

func (p prober) llamaProps(url string) (int, error) {
	var props struct {
		Settings struct {
			NCtx json.Number `json:"n_ctx"`
		} `json:"default_generation_settings"`
		NCtx json.Number `json:"n_ctx"`
	}
	if err := p.get(http.MethodGet, url, nil, &props); err != nil {
		return 0, err
	}
	if props.Settings.NCtx != "" {
		return positive(props.Settings.NCtx)
	}
	return positive(props.NCtx)
}

func (p prober) ollamaShow(url, id string) (int, error) {
	body, err := json.Marshal(map[string]string{"model": id})
	if err != nil {
		return 0, err
	}
	var show struct {
		Parameters string                     `json:"parameters"`
		ModelInfo  map[string]json.RawMessage `json:"model_info"`
	}
	if err := p.get(http.MethodPost, url, body, &show); err != nil {
		return 0, err
	}
	if n := numCtx(show.Parameters); n > 0 {
		return n, nil
	}
	var arch string
	if err := json.Unmarshal(show.ModelInfo["general.architecture"], &arch); err != nil || arch == "" {
		return 0, errors.New("no model_info general.architecture")
	}
	var n json.Number
	if err := json.Unmarshal(show.ModelInfo[arch+".context_length"], &n); err != nil {
		return 0, errors.New("no model_info " + limit.Quote(arch+".context_length"))
	}
	return positive(n)
}

// numCtx returns the num_ctx line of Ollama's parameters text, 0 when it
// has none.
func numCtx(parameters string) int {
	sc := bufio.NewScanner(strings.NewReader(parameters))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 2 && fields[0] == "num_ctx" {
			if n, err := strconv.Atoi(fields[1]); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// positive returns n as a window: an integer above 0 that fits an int32.
func positive(n json.Number) (int, error) {
	if n == "" {
		return 0, nil
	}
	v, err := strconv.ParseInt(string(n), 10, 32)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("window %s is not a positive integer", limit.Quote(string(n)))
	}
	return int(v), nil
}
