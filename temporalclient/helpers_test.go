package temporalclient_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/temporalclient"
)

// dial connects to the dev server with s applied, as every process builds its client, and
// closes the client when the test ends.
func dial(t *testing.T, s temporalclient.Settings) client.Client {
	t.Helper()
	opts := client.Options{HostPort: os.Getenv("TEMPORAL_ADDRESS"), Logger: testenv.QuietLogger()}
	require.NoError(t, s.Apply(&opts))
	c, err := client.Dial(opts)
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c
}
