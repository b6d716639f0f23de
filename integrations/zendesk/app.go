package zendesk

import (
	"archive/zip"
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"io/fs"
	"net"
	"net/url"
	"strings"
)

// SidebarPath is where the app's ticket_sidebar location points on the supportdraft
// server; Zendesk POSTs the ZAF JWT there on the first load.
const SidebarPath = "/app/zendesk/sidebar"

//go:embed app
var appFS embed.FS

// SidebarURL is the location URL for a server at base: base itself when it already names
// the sidebar path, else base with SidebarPath. Zendesk frames only HTTPS; plain HTTP is
// accepted for a loopback host, for trying the app against a local server.
func SidebarURL(base string) (string, error) {
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return "", fmt.Errorf("--url %q: use the server's https URL, such as https://supportdraft.example.com", base)
	}
	if ip := net.ParseIP(u.Hostname()); u.Scheme == "http" && u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return "", fmt.Errorf("--url %q: Zendesk frames only https URLs (http is for localhost)", base)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("--url %q: give the server's URL without a query or fragment", base)
	}
	if !strings.HasSuffix(u.Path, SidebarPath) {
		u.Path += SidebarPath
	}
	return u.String(), nil
}

// Package writes the app as the zip Zendesk installs: manifest.json with the sidebar
// location at sidebarURL and signed URLs on, translations/en.json, and the two logos the
// app listing requires (assets/logo.png 320 px and assets/logo-small.png 128 px, drawn here).
func Package(w io.Writer, sidebarURL string) error {
	manifest, err := Manifest(sidebarURL)
	if err != nil {
		return err
	}
	en, err := fs.ReadFile(appFS, "app/translations/en.json")
	if err != nil {
		return err
	}
	z := zip.NewWriter(w)
	files := []struct {
		name string
		data []byte
	}{
		{"manifest.json", manifest},
		{"translations/en.json", en},
		{"assets/logo.png", logo(320)},
		{"assets/logo-small.png", logo(128)},
	}
	for _, f := range files {
		fw, err := z.Create(f.name)
		if err != nil {
			return err
		}
		if _, err := fw.Write(f.data); err != nil {
			return err
		}
	}
	return z.Close()
}

// Manifest is app/manifest.json with the ticket_sidebar location's url set, the one field
// that differs between deployments.
func Manifest(sidebarURL string) ([]byte, error) {
	raw, err := fs.ReadFile(appFS, "app/manifest.json")
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("app/manifest.json: %w", err)
	}
	loc, ok := m["location"].(map[string]any)["support"].(map[string]any)["ticket_sidebar"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("app/manifest.json: location.support.ticket_sidebar is missing")
	}
	loc["url"] = sidebarURL
	return json.MarshalIndent(m, "", "  ")
}

// logo draws a plain square in the sidebar's accent colour.
func logo(size int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	accent := color.RGBA{R: 0x1f, G: 0x5f, B: 0x8b, A: 0xff}
	for y := range size {
		for x := range size {
			img.Set(x, y, accent)
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img) // encoding an in-memory RGBA image cannot fail
	return b.Bytes()
}
