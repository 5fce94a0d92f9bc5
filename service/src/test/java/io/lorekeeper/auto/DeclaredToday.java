package io.lorekeeper.auto;

import java.util.List;
import java.util.Map;

import io.lorekeeper.strategy.Aptitude;
import io.lorekeeper.strategy.GoodAt;

/**
 * What the deployed strategies declare to auto ({@code goodAt()}), so that the rules can be tested
 * without an application context; {@link DeclarationsTest} holds it to what the strategies declare.
 */
final class DeclaredToday {

    static final Map<String, List<GoodAt>> DECLARED = Map.of(
            "rag", List.of(GoodAt.of(Aptitude.ONE_CALL, 10)),
            "gam",
                    List.of(
                            GoodAt.of(Aptitude.CONVERSATION_REASONING, 10),
                            GoodAt.of(Aptitude.JOINED_FACTS, 10),
                            GoodAt.of(Aptitude.TEXT_WHOLE_STORY, 20),
                            GoodAt.of(Aptitude.LONG_TEXT_WHOLE_STORY, 30)),
            "memcot", List.of(GoodAt.of(Aptitude.CONVERSATION_REASONING, 20), GoodAt.of(Aptitude.JOINED_FACTS, 20)),
            "comorag", List.of(GoodAt.of(Aptitude.LONG_TEXT_WHOLE_STORY, 10)),
            "mindgraph",
                    List.of(
                            GoodAt.of(Aptitude.TEXT_WHOLE_STORY, 10),
                            new GoodAt(Aptitude.LONG_TEXT_WHOLE_STORY, 20, Map.of("graph", "shared"))),
            "cosmir", List.of(GoodAt.of(Aptitude.LONG_TEXT_WHOLE_STORY, 40)));

    /** auto's routes over today's declarations. */
    static final Routes ROUTES = Routes.of(DECLARED);

    private DeclaredToday() {}
}
