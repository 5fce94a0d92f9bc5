package io.lorekeeper.llm;

/** The question's budget is spent; strategies catch it and return their best answer so far. */
public class BudgetExhaustedException extends LlmException {

    public BudgetExhaustedException(String what) {
        super("budget exhausted: " + what);
    }
}
