package io.lorekeeper.eval;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Evaluations' settings under {@code lorekeeper.eval}.
 *
 * @param dataDir folder that {@code POST /v1/evaluations} resolves dataset paths against (paths may not
 *                leave it)
 */
@ConfigurationProperties("lorekeeper.eval")
record EvalSettings(@DefaultValue("data") String dataDir) {}
