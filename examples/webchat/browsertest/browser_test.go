package browsertest

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/examples/webchat/internal/webchat"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// requireChromium, when set in the environment (CI sets it), makes the
// test fail instead of skipping when Chromium is missing.
const requireChromium = "WEBCHAT_REQUIRE_CHROMIUM"

// screenshotDir, when set, is where the test saves screenshots of the page.
const screenshotDir = "WEBCHAT_SCREENSHOT_DIR"

// chromium finds Debian's Chromium.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "the webchat browser test needs Chromium on PATH (apt-get install chromium)"
	if os.Getenv(requireChromium) != "" {
		t.Fatal(msg)
	}
	t.Skip(msg + "; set " + requireChromium + "=1 to make this a failure")
	return ""
}

// browser starts headless Chromium and returns a tab's context.
func browser(t *testing.T) context.Context {
	// Chromium's helpers may still write to their profile as the browser
	// exits, which t.TempDir would report: the profile is removed, best
	// effort, after the browser is gone.
	profile, err := os.MkdirTemp("", "webchat-chromium-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(profile) })
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1100, 900),
	)
	// A guard against a browser that never answers, not a measure of speed.
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	tab, cancelTab := chromedp.NewContext(alloc)
	t.Cleanup(cancelTab)
	return tab
}

// until waits for the JavaScript condition cond to hold on the page.
func until(cond string) chromedp.Action {
	return chromedp.Poll(cond, nil, chromedp.WithPollingInterval(20*time.Millisecond))
}

// say types text into the composer and sends it.
func say(text string) chromedp.Action {
	return chromedp.Tasks{
		chromedp.WaitVisible("#send", chromedp.ByID),
		chromedp.SetValue("#input", text, chromedp.ByID),
		chromedp.Click("#send", chromedp.ByID),
	}
}

// shot saves a screenshot of the page as name when WEBCHAT_SCREENSHOT_DIR
// is set.
func shot(t *testing.T, name string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		dir := os.Getenv(screenshotDir)
		if dir == "" {
			return nil
		}
		var png []byte
		if err := chromedp.FullScreenshot(&png, 100).Do(ctx); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, name), png, 0o644)
	})
}

const lastBubble = `[...document.querySelectorAll('.row.assistant .bubble')].map(b => b.textContent).pop() || ''`

func TestWebchat(t *testing.T) {
	fake := webchat.FakeModel(2 * time.Millisecond)
	srv := httptest.NewServer(webchat.New(webchat.Config{Model: agentcoretest.Model(), StreamFn: fake.Stream}))
	defer srv.Close()
	tab := browser(t)
	require.NoError(t, chromedp.Run(tab,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible("#empty", chromedp.ByID),
		until(`document.getElementById('model').textContent.includes('fake-model')`),
		shot(t, "empty.png"),
	))

	t.Run("streamed answer, reasoning and parallel tool calls", func(t *testing.T) {
		var args, results []string
		var thinking, answer string
		require.NoError(t, chromedp.Run(tab,
			say("What's the weather in Paris and Tokyo?"),
			until(`document.querySelectorAll('.tool pre.result').length === 2 && (`+lastBubble+`).includes('Here is the weather')`),
			until(`!document.getElementById('send').hidden`),
			chromedp.Evaluate(`[...document.querySelectorAll('.tool pre.args')].map(e => e.textContent)`, &args),
			chromedp.Evaluate(`[...document.querySelectorAll('.tool pre.result')].map(e => e.textContent)`, &results),
			chromedp.Evaluate(`document.querySelector('details.thinking .text').textContent`, &thinking),
			chromedp.Evaluate(lastBubble, &answer),
			// The finished thought is folded; opened, it stays open.
			chromedp.Click("details.thinking summary", chromedp.ByQuery),
			chromedp.WaitVisible("details.thinking .text", chromedp.ByQuery),
			shot(t, "weather.png"),
		))
		require.Len(t, args, 2)
		assert.Contains(t, args[0], `"city": "Paris"`)
		assert.Contains(t, args[1], `"city": "Tokyo"`)
		assert.Equal(t, []string{"Paris: 18°C and sunny", "Tokyo: 24°C with light rain"}, results)
		assert.Contains(t, thinking, "weather in two cities")
		assert.Equal(t, "Here is the weather: Paris: 18°C and sunny; Tokyo: 24°C with light rain.", answer)
	})

	t.Run("front-end tool asks the user", func(t *testing.T) {
		var question, answer string
		require.NoError(t, chromedp.Run(tab,
			say("Deploy the new version to production."),
			chromedp.WaitVisible("#confirm-yes", chromedp.ByID),
			chromedp.Text(".confirm .question", &question, chromedp.ByQuery),
			shot(t, "confirm.png"),
			chromedp.Click("#confirm-yes", chromedp.ByID),
			until(`(`+lastBubble+`).includes('Deployed')`),
			until(`!document.getElementById('send').hidden`),
			chromedp.Evaluate(lastBubble, &answer),
		))
		assert.Equal(t, "Deploy version 1.4 to production?", question)
		assert.Equal(t, "Deployed version 1.4 to production.", answer)
	})

	t.Run("a held server tool asks for approval", func(t *testing.T) {
		var question, why, state, shipped, deniedState, denied string
		lastState := `[...document.querySelectorAll('.tool .state')].pop().textContent`
		require.NoError(t, chromedp.Run(tab,
			say("Ship version 1.5 to production."),
			chromedp.WaitVisible("#approve", chromedp.ByID),
			until(`!document.getElementById('send').hidden`),
			chromedp.Text(".approval .question", &question, chromedp.ByQuery),
			chromedp.Text(".approval .why", &why, chromedp.ByQuery),
			chromedp.Evaluate(lastState, &state),
			shot(t, "approval.png"),
			chromedp.Click("#approve", chromedp.ByID),
			until(`(`+lastBubble+`).includes('is live')`),
			until(`!document.getElementById('send').hidden`),
			chromedp.Evaluate(lastBubble, &shipped),

			say("Ship version 1.5 to production."),
			chromedp.WaitVisible("#deny", chromedp.ByID),
			chromedp.SetValue("#deny-reason", "Not on a Friday.", chromedp.ByID),
			shot(t, "deny.png"),
			chromedp.Click("#deny", chromedp.ByID),
			until(`(`+lastBubble+`).startsWith('Not shipped')`),
			until(`!document.getElementById('send').hidden`),
			chromedp.Evaluate(lastBubble, &denied),
			chromedp.Evaluate(lastState, &deniedState),
			shot(t, "denied.png"),
		))
		assert.Equal(t, "Deploy to production?", question)
		assert.Equal(t, "Deploying changes what every user sees.", why)
		assert.Equal(t, "needs your approval", state)
		assert.Equal(t, "Version 1.5 is live in production.", shipped)
		assert.Equal(t, "Not shipped: Not on a Friday.", denied)
		assert.Equal(t, "denied", deniedState, "a denied call did not fail")
	})

	t.Run("Stop ends the run", func(t *testing.T) {
		var story, notice, after string
		var stopHidden bool
		require.NoError(t, chromedp.Run(tab,
			say("Tell me a long story."),
			until(`(`+lastBubble+`).startsWith('Once upon a time') && (`+lastBubble+`).length > 40`),
			chromedp.Click("#stop", chromedp.ByID),
			until(`[...document.querySelectorAll('.notice')].some(n => n.textContent === 'Stopped.')`),
			chromedp.Evaluate(`document.getElementById('stop').hidden`, &stopHidden),
			chromedp.Evaluate(lastBubble, &story),
			chromedp.Evaluate(`[...document.querySelectorAll('.notice')].pop().textContent`, &notice),
			shot(t, "stopped.png"),
			// The thread goes on after a stopped run.
			say("hello again"),
			until(`(`+lastBubble+`).startsWith('You said')`),
			until(`!document.getElementById('send').hidden`),
			chromedp.Evaluate(lastBubble, &after),
			shot(t, "after-stop.png"),
		))
		assert.True(t, stopHidden)
		assert.Equal(t, "Stopped.", notice)
		assert.Less(t, len(story), len(strings.Repeat("Once upon a time, an agent streamed a very long story, one word at a time. ", 40)), "the story was cut off")
		assert.Contains(t, after, `"hello again"`)
	})
}
