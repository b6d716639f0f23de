package testenv

import (
	"context"
	"os/exec"
	"testing"

	"github.com/chromedp/chromedp"
)

// Browser starts Debian's chromium headless with a fresh profile, at width × height, and
// returns a context that drives it until the test ends. scripts/test.sh installs chromium
// when it is missing. The profile and chromium's temporary files (its singleton socket
// directory, which it leaves behind when the test ends it) live in the test's own
// directory, which the test removes.
func Browser(t testing.TB, width, height int) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not installed: run the tests with scripts/test.sh, which installs Debian's chromium")
	}
	dir := t.TempDir()
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(path), chromedp.UserDataDir(dir), chromedp.Env("TMPDIR="+dir),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.WindowSize(width, height),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true))
	t.Cleanup(cancel)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	t.Cleanup(cancelCtx)
	// The first action starts the browser; it lives as long as ctx, not a step's deadline.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}
