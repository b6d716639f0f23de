// Package pgtest runs a private Postgres cluster for a test that stops and starts its
// database. The Postgres of scripts/services.sh serves every test and every developer on
// the machine, so no test may restart it: this one is initdb'd into a temporary directory,
// from the same binaries (and so with the same pgvector) services.sh installs, and listens
// on a free loopback port. Each test that needs one gets its own and it is removed after.
package pgtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
)

// Bin is where the Postgres binaries are: the version scripts/services.sh installs.
const Bin = "/usr/lib/postgresql/15/bin"

// Cluster is a private Postgres cluster.
type Cluster struct {
	dir  string
	port int
	t    testing.TB
}

// Start initdbs a cluster with the vector and btree_gist extensions in its postgres
// database, starts it, and stops and removes it when the test ends.
func Start(t testing.TB) *Cluster {
	t.Helper()
	dir, err := os.MkdirTemp("", "supportdraft-pg-")
	if err != nil {
		t.Fatalf("private Postgres: %v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if os.Getuid() == 0 { // Postgres refuses to run as root: its files belong to postgres
		if out, err := exec.Command("chown", "postgres:postgres", dir).CombinedOutput(); err != nil {
			t.Fatalf("private Postgres: chown %s: %v: %s", dir, err, out)
		}
	}
	c := &Cluster{dir: dir, port: freePort(t), t: t}
	c.run("initdb", "-D", filepath.Join(dir, "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
	c.Start()
	t.Cleanup(func() {
		_ = c.command("pg_ctl", "stop", "-D", filepath.Join(dir, "data"), "-m", "immediate", "-w").Run()
	})
	conn, err := pgx.Connect(context.Background(), c.URL())
	if err != nil {
		t.Fatalf("private Postgres: connect: %v", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), `CREATE EXTENSION vector; CREATE EXTENSION btree_gist`); err != nil {
		t.Fatalf("private Postgres: extensions (does scripts/services.sh install pgvector?): %v", err)
	}
	return c
}

// URL is the cluster's postgres database.
func (c *Cluster) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// Start starts the cluster and waits until it accepts connections.
func (c *Cluster) Start() {
	c.t.Helper()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60", c.port, c.dir)
	c.run("pg_ctl", "start", "-D", filepath.Join(c.dir, "data"), "-l", filepath.Join(c.dir, "log"), "-w", "-o", opts)
}

// Stop stops the cluster (fast shutdown: open connections are cut) and waits until it is down.
func (c *Cluster) Stop() {
	c.t.Helper()
	c.run("pg_ctl", "stop", "-D", filepath.Join(c.dir, "data"), "-m", "fast", "-w")
}

func (c *Cluster) run(name string, args ...string) {
	c.t.Helper()
	if out, err := c.command(name, args...).CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		c.t.Fatalf("private Postgres: %s: %v\n%s\n%s", name, err, out, log)
	}
}

// command runs a Postgres binary, as the postgres user when the test runs as root.
func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	bin := filepath.Join(Bin, name)
	if os.Getuid() == 0 {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", bin}, args...)...)
	}
	return exec.Command(bin, args...)
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("private Postgres: free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
