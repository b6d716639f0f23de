package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ParseFile reads and parses one policy file, such as a single version being approved.
func ParseFile(path string) (*Version, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read policy file: %w", err)
	}
	return Parse(path, data)
}

// ParseDir parses every *.md file under dir (hidden directories skipped) and returns the
// versions sorted by doc_id, then version. Import is all-or-nothing, so it reports every
// problem in every file, joined, instead of stopping at the first.
func ParseDir(dir string) ([]*Version, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("read policy corpus: %w", err)
	}
	return parseTree(os.DirFS(dir), ".", func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) })
}

func parseTree(fsys fs.FS, root string, display func(string) string) ([]*Version, error) {
	var files []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read policy corpus %s: %w", display(root), err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no policy files (*.md) found: point to the corpus directory", display(root))
	}
	slices.Sort(files)

	var versions []*Version
	var errs []error
	declared := map[string]string{} // doc_id@version → file that declared it first
	for _, p := range files {
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			errs = append(errs, fmt.Errorf("read %s: %w", display(p), err))
			continue
		}
		v, err := Parse(display(p), data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if first, ok := declared[v.Ref()]; ok {
			errs = append(errs, &ParseError{Path: v.Path, Msg: fmt.Sprintf("declares %s, which %s already declares", v.Ref(), first),
				Fix: "give one of the two files a new version number, or delete the copy"})
			continue
		}
		declared[v.Ref()] = v.Path
		versions = append(versions, v)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.SortFunc(versions, func(a, b *Version) int {
		if c := strings.Compare(a.DocID, b.DocID); c != 0 {
			return c
		}
		return a.Version - b.Version
	})
	return versions, nil
}
