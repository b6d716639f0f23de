package cli

import (
	"archive/zip"
	"path/filepath"
	"strings"
	"testing"
)

// `supportdraft integrations zendesk package` writes the installable zip; a URL Zendesk
// cannot frame is a usage error (exit 2) naming the flag.
func TestZendeskPackageCommand(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "app.zip")
	stdout, err, code := run(t, newIntegrationsCmd(), "zendesk", "package", "--url", "https://sd.example.com", "--out", out)
	if err != nil || code != 0 || !strings.Contains(stdout, "https://sd.example.com/app/zendesk/sidebar") {
		t.Fatalf("package: %q, %v, exit %d", stdout, err, code)
	}
	z, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
	}
	if strings.Join(names, " ") != "manifest.json translations/en.json assets/logo.png assets/logo-small.png" {
		t.Fatalf("zip holds %v", names)
	}
	_, err, code = run(t, newIntegrationsCmd(), "zendesk", "package", "--url", "http://sd.example.com", "--out", out)
	if code != 2 || !strings.Contains(err.Error(), "--url") {
		t.Fatalf("http URL: %v, exit %d", err, code)
	}
}
