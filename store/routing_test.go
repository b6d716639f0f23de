package store_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/internal/testdb"
)

// AgentForAddress finds the agent of the first recipient any agent's addresses hold
// (letter case, display names and +tags aside); another agent's own address wins over
// the default agent's glob; an address no agent holds finds none.
func TestAgentForAddressRoutesByTheFirstRecipientAnAgentHolds(t *testing.T) {
	t.Parallel()
	s, _ := testdb.New(t)
	ctx := context.Background()
	_, err := s.Pool().Exec(ctx, `UPDATE agents SET addresses = '{billing@*,support@company.example}' WHERE id = 'billing';
		INSERT INTO agents (id, name, addresses) VALUES ('payments', 'Payments', '{payments@company.example,payouts@*}'),
			('quiet', 'No mail', '{}')`)
	require.NoError(t, err)

	for _, tc := range []struct {
		recipients []string
		want       string
	}{
		{[]string{"Payments Desk <PAYMENTS+eu@company.example>"}, "payments"},
		{[]string{"billing@company.example"}, agent.Default},
		{[]string{"billing@payouts.example"}, agent.Default},
		{[]string{"payouts@billing.example"}, "payments"},
		{[]string{"ana@customer.example", "support@company.example", "payments@company.example"}, agent.Default},
		{[]string{"ana@customer.example"}, ""},
		{nil, ""},
	} {
		got, own, err := s.AgentForAddress(ctx, tc.recipients)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "%v", tc.recipients)
		if tc.want != "" {
			require.NotNil(t, own)
			other := map[string]string{"payments": "payouts@any.example", agent.Default: "support@company.example"}[tc.want]
			assert.True(t, own.Is(other), "all of %s's addresses come back, %s among them", tc.want, other)
		}
	}

	_, err = s.Pool().Exec(ctx, `UPDATE agents SET addresses = '{payments@*}' WHERE id = 'billing'`)
	require.NoError(t, err)
	got, _, err := s.AgentForAddress(ctx, []string{"payments@company.example"})
	require.NoError(t, err)
	assert.Equal(t, "payments", got, "at one address, another agent's wins over the default agent's")
}
