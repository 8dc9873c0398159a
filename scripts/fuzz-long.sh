#!/usr/bin/env bash
# Long fuzz: the property tests of test/robustness with many more runs than `npm test` makes.
#
#   scripts/fuzz-long.sh                      # 2000 runs per property, a fresh seed
#   FUZZ_RUNS=10000 scripts/fuzz-long.sh      # more runs
#   FUZZ_SEED=424242 scripts/fuzz-long.sh     # the seed `npm test` uses (or one a failure printed)
#   FUZZ_SEED=… FUZZ_PATH="…" scripts/fuzz-long.sh -t 'send:'   # replay one failure
#
# Extra arguments go to jest. A failure prints FUZZ_SEED and FUZZ_PATH to replay it.
set -euo pipefail
cd "$(dirname "$0")/.."

export FUZZ_RUNS="${FUZZ_RUNS:-2000}"
export FUZZ_SEED="${FUZZ_SEED:-$(( $(date +%s) % 2147483647 ))}"
echo "fuzz-long: FUZZ_RUNS=${FUZZ_RUNS} FUZZ_SEED=${FUZZ_SEED}"

npm run build
npx jest --runInBand \
	test/robustness/inputs.property.test.ts \
	test/robustness/variables.test.ts \
	test/robustness/placeholders.test.ts \
	test/robustness/aiTool.test.ts \
	"$@"
