#!/usr/bin/env bash
# The `agentos` CLI: each `agentos -c` runs one command in a fresh VM and exits with its status.
# Run from anywhere: bash examples/cli.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# From the repository the CLI runs from source; with the package installed it is simply `npx agentos`.
agentos() { node --import tsx src/cli/main.ts "$@"; }

# One command; stdout and stderr go to ours.
agentos -c 'echo hello from the VM | tr a-z A-Z'

# Piped stdin reaches the command; --json prints the result as one object; the exit status is the command's.
printf 'pear\napple\n' | agentos --json -c 'sort; echo done >&2; exit 3' || echo "exit status $?"

# A host directory, read-only inside the VM (examples/ here).
agentos --mount examples:/mnt/examples -c 'head -n 1 /mnt/examples/cli.sh; touch /mnt/examples/x 2>/dev/null || echo read-only'
