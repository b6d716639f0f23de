package redact

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNameFormsAndText(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text, want string
	}{
		{"Ana Ruiz", "Hi, this is Ana Ruiz. Ana from ACME; ask ms ruiz.", "Hi, this is [NAME_1]. [NAME_3] from ACME; ask ms [NAME_2]."},
		{"  Li  Wei ", "Li Wei here, Li again.", "[NAME_1] here, Li again."},
		{"", "Nothing to hide.", "Nothing to hide."},
		{"Jo", "Jo wrote: join us", "[NAME_1] wrote: join us"},
	}
	for _, tc := range cases {
		tab := NewTable()
		got := Text(tc.text, NameForms(tc.name), tab)
		assert.Equal(t, tc.want, got, tc.name)
		assert.Equal(t, tc.text, tab.Restore(got), "restored: %s", tc.name)
	}
	ctx := WithNames(context.Background(), NameForms("Ana Ruiz"))
	assert.Equal(t, []string{"Ana Ruiz", "Ana", "Ruiz"}, NamesFrom(ctx))
	assert.Nil(t, NamesFrom(context.Background()))
}
