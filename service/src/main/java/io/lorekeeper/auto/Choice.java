package io.lorekeeper.auto;

import java.util.List;
import java.util.Map;

/**
 * What auto picked and why.
 *
 * @param rule       the rule that applied
 * @param reasons    the facts that made it apply
 * @param considered each candidate tried before the pick, with why it could not run ({@code chosen} for the pick)
 */
record Choice(Candidate candidate, String rule, List<String> reasons, List<Map<String, String>> considered) {}
