#!/usr/bin/env bash
# The cross-validated report (issue #31; docs/evaluation.md, "Cross-validated report"): evaluates LoCoMo dev3
# (extractive, search:hybrid, search:deep) and HotpotQA distractor dev100 (extractive, search:hybrid) with
# scripts/eval.sh, each in its own database, then cross-validates what is fitted to them (the extractive span
# ranker and confidence, the choice of search probe) over both reports, without a service, and prints cv.md.
#
#   scripts/eval-cv.sh                                   # into eval-results/cv/{locomo,hotpot} and eval-results/cv
#   LK_CV_OUT=/tmp/cv scripts/eval-cv.sh --lorekeeper.eval.limit=20
#
# Extra arguments go to both evaluations (scripts/eval.sh sends --lorekeeper.eval.* to the evaluator and the
# rest to the service). LK_CV_OUT changes the output folder; the data come from ../shared/data as in
# docs/evaluation.md. Exits with the first evaluation's failure status, else the cross-validation's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

out=${LK_CV_OUT:-eval-results/cv}
data=${LK_CV_DATA:-../shared/data}

LK_PG_DB=lorekeeper_cv_locomo scripts/eval.sh \
  --lorekeeper.eval.dataset=locomo \
  --lorekeeper.eval.path="$data/locomo/locomo10_dev3.json" \
  --lorekeeper.eval.strategies=extractive,search:hybrid,search:deep \
  --lorekeeper.eval.concurrency=2 \
  --lorekeeper.eval.out="$out/locomo" "$@"

LK_PG_DB=lorekeeper_cv_hotpot scripts/eval.sh \
  --lorekeeper.eval.dataset=hotpotqa \
  --lorekeeper.eval.path="$data/hotpotqa/hotpotqa_distractor_dev100.jsonl" \
  --lorekeeper.eval.strategies=extractive,search:hybrid \
  --lorekeeper.eval.concurrency=2 \
  --lorekeeper.eval.out="$out/hotpot" "$@"

# no service: eval.sh runs the evaluator alone on the written reports (it prints cv.md)
scripts/eval.sh --lorekeeper.eval.cross-validate="$out/locomo/report.json,$out/hotpot/report.json" \
  --lorekeeper.eval.out="$out"
