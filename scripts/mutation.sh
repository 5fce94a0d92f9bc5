#!/usr/bin/env bash
# Mutation testing (PIT) of the decision logic: quote resolution and citation verification, budgets,
# structured output, retrieval fusion, quotas, document and question state transitions. The target
# classes and the unit tests run against their mutants are set in service/pom.xml (pitest-maven); those tests
# need no Spring context and no database, so nothing is provisioned. Not part of `verify` or CI: run it
# on its own (about 6 minutes on 2 cores). The report: service/target/pit-reports/index.html (mutations.xml
# and mutations.csv beside it). Extra arguments go to Maven (e.g. -DtargetClasses=io.lorekeeper.llm.Budget
# -DtargetTests=io.lorekeeper.llm.BudgetTest for one class).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/java-env.sh

./mvnw -B -ntp -Dspotless.check.skip=true -pl service -am test-compile org.pitest:pitest-maven:mutationCoverage "$@"
echo "[mutation] report: service/target/pit-reports/index.html"
if command -v python3 >/dev/null; then python3 scripts/mutation-summary.py service/target/pit-reports/mutations.xml; fi
