package io.lorekeeper.llm;

import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * What each model profile's tokens cost, as the operator configures them under {@code lorekeeper.llm.prices}
 * (the provider's list price, in whatever currency the operator reads its bills in). Only the estimated
 * cost metric uses them; a profile without a price costs nothing there.
 *
 * @param prices per profile name ({@code default} for the top-level settings): the price of a million
 *               prompt and of a million completion tokens
 */
@ConfigurationProperties("lorekeeper.llm")
record LlmPrices(Map<String, Price> prices) {

    LlmPrices {
        prices = prices == null ? Map.of() : Map.copyOf(prices);
    }

    /**
     * @param promptPerMillion     the price of a million prompt (input) tokens
     * @param completionPerMillion the price of a million completion (output) tokens
     */
    record Price(double promptPerMillion, double completionPerMillion) {}

    /** The estimated cost of a call's tokens on a profile; 0 for a profile without a price. */
    double cost(String profile, long promptTokens, long completionTokens) {
        Price price = prices.get(profile);
        if (price == null) {
            return 0;
        }
        return (promptTokens * price.promptPerMillion() + completionTokens * price.completionPerMillion()) / 1e6;
    }
}
