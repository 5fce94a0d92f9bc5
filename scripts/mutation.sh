#!/usr/bin/env bash
# Mutation testing (PIT) of the decision logic, in three groups (service/pom.xml, profiles pit-core,
# pit-tenancy, pit-strategies): core (quote resolution and citation verification, budgets, structured
# output, retrieval fusion, quotas, document and question state transitions), tenancy (the tenancy
# filters: key resolution, the key filter, the rate limit, the current tenant) and strategies (the
# strategies' stop conditions, thresholds, boundaries and filters). The unit tests run against the mutants
# need no Spring context and no database, so nothing is provisioned. Not part of `verify` or CI: run it
# on its own. `scripts/mutation.sh` runs the three groups; `scripts/mutation.sh strategies` (or core,
# tenancy) one of them. Durations on 2 shared cores: docs/benchmarks.md (Mutation testing). The report:
# service/target/pit-reports/index.html (mutations.xml and mutations.csv beside it). Further arguments go
# to Maven (e.g. -DtargetClasses=io.lorekeeper.llm.Budget -DtargetTests=io.lorekeeper.llm.BudgetTest for
# one class).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/java-env.sh

groups=()
case "${1:-}" in
core) groups=(-Dpit.tenancy=false -Dpit.strategies=false); shift ;;
tenancy) groups=(-Dpit.core=false -Dpit.strategies=false); shift ;;
strategies) groups=(-Dpit.core=false -Dpit.tenancy=false); shift ;;
esac

./mvnw -B -ntp -Dspotless.check.skip=true -pl service -am test-compile org.pitest:pitest-maven:mutationCoverage "${groups[@]}" "$@"
echo "[mutation] report: service/target/pit-reports/index.html"
if command -v python3 >/dev/null; then python3 scripts/mutation-summary.py service/target/pit-reports/mutations.xml; fi
