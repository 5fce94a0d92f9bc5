package io.lorekeeper.strategy;

import java.util.function.Function;

/**
 * The frame a strategy with options shares: a fixed name and requirements, and the question's
 * options read into the strategy's settings by one method, both when the request is validated at
 * intake and when the question is answered. So an option that validation accepted is read the same
 * way when the strategy runs, and a strategy gives only how it reads its settings and
 * {@link #answer(QuestionContext, Object)}.
 *
 * @param <S> the strategy's settings, read from the options
 */
public abstract class SettingsStrategy<S> implements AnswerStrategy {

    private final String name;
    private final StrategyRequirements requirements;
    private final Function<QuestionOptions, S> settings;

    /** @param settings reads the options into settings, each checked (an ApiProblem names the option at fault) */
    protected SettingsStrategy(String name, StrategyRequirements requirements, Function<QuestionOptions, S> settings) {
        this.name = name;
        this.requirements = requirements;
        this.settings = settings;
    }

    /**
     * The options read into settings, each checked.
     *
     * @throws io.lorekeeper.platform.ApiProblem naming the option at fault
     */
    protected final S settings(QuestionOptions options) {
        return settings.apply(options);
    }

    /** Answers the question with its settings. */
    protected abstract StrategyResult answer(QuestionContext context, S settings);

    @Override
    public String name() {
        return name;
    }

    @Override
    public StrategyRequirements requirements() {
        return requirements;
    }

    @Override
    public void validate(QuestionOptions options) {
        settings(options);
    }

    @Override
    public StrategyResult answer(QuestionContext context) {
        return answer(context, settings(context.options()));
    }
}
