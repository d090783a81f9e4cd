// Package browsertest drives examples/webchat's page in headless Chromium
// (chromedp) on the fake model and checks what a person would see. It is
// a module of its own so that the root module does not depend on
// chromedp; .ci/run runs it.
package browsertest
