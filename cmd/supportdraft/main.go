// Command supportdraft drafts replies to billing support tickets from current, approved
// policy only. Run `supportdraft --help` for its subcommands.
package main

import (
	"os"

	"github.com/supportdraft/supportdraft/cli"
)

func main() {
	os.Exit(cli.Execute(os.Args[1:]))
}
