package io.lorekeeper.platform;

import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An aggregate refused a state change its current state does not allow (a retry of a question that
 * is not FAILED, an answer recorded for one that is not RUNNING). A domain exception: the web edge
 * turns it into a 409 problem, and a background job that meets it knows another request or replica
 * moved the aggregate on first.
 */
public class IllegalTransitionException extends RuntimeException implements Failures.Readable {

    private final String aggregate;
    private final Object id;
    private final String state;
    private final String transition;
    private final List<String> allowedFrom;

    public IllegalTransitionException(
            String aggregate, Object id, Enum<?> state, String transition, Collection<? extends Enum<?>> allowedFrom) {
        super(aggregate.toLowerCase(java.util.Locale.ROOT) + " " + id + " is " + state + "; " + transition
                + " needs it " + allowedFrom.stream().map(Enum::name).collect(Collectors.joining(" or ")));
        this.aggregate = aggregate;
        this.id = id;
        this.state = state.name();
        this.transition = transition;
        this.allowedFrom = allowedFrom.stream().map(Enum::name).toList();
    }

    /**
     * Refuses {@code transition} unless {@code current} is one of the states it may start from: the
     * guard every aggregate's transition methods share.
     */
    @SafeVarargs
    public static <E extends Enum<E>> void require(
            String aggregate, Object id, E current, String transition, E first, E... more) {
        java.util.EnumSet<E> allowed = java.util.EnumSet.of(first, more);
        if (!allowed.contains(current)) {
            throw new IllegalTransitionException(aggregate, id, current, transition, allowed);
        }
    }

    /** What kind of aggregate refused ("Question"). */
    public String aggregate() {
        return aggregate;
    }

    public Object id() {
        return id;
    }

    /** The state it was in when it refused. */
    public String state() {
        return state;
    }

    /** The refused change, as the aggregate names it ("retry"). */
    public String transition() {
        return transition;
    }

    /** The states from which the change would have been made. */
    public List<String> allowedFrom() {
        return allowedFrom;
    }
}
