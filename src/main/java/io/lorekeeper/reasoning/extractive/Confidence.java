package io.lorekeeper.reasoning.extractive;

/**
 * Maps the best sentence's score and its lead over the runner-up to a probability-like
 * confidence with a logistic curve. The coefficients are hand-set (a best score of 0.7 with a
 * 0.1 lead gives about 0.75; 0.4 with no lead about 0.15) until the evaluation harness fits them
 * to held-out data.
 */
final class Confidence {

    private Confidence() {
    }

    static double of(double best, double runnerUp, boolean typeMatch) {
        double z = -4.0 + 6.0 * best + 4.0 * Math.max(0, best - runnerUp) + (typeMatch ? 0.5 : 0);
        double p = 1 / (1 + Math.exp(-z));
        return Math.max(0.01, Math.min(0.99, p));
    }

    /** Softmax share of the winning choice among all choices' support scores. */
    static double ofChoice(double[] supports, int chosen, double temperature) {
        double max = Double.NEGATIVE_INFINITY;
        for (double s : supports) {
            max = Math.max(max, s);
        }
        double sum = 0;
        for (double s : supports) {
            sum += Math.exp((s - max) / temperature);
        }
        double p = Math.exp((supports[chosen] - max) / temperature) / sum;
        return Math.max(0.01, Math.min(0.99, p));
    }
}
