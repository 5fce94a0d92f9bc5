package io.lorekeeper.platform;

/**
 * The reason a failed job shows its user. Exceptions written for users ({@link Readable}: API
 * problems, LLM failures) speak for themselves; anything else is described by its root cause,
 * whose message is the most specific one.
 */
public final class Failures {

    /** An exception whose message is written to be read by the service's users. */
    public interface Readable {}

    private static final int MAX = 500;

    private Failures() {}

    public static String describe(Throwable error) {
        Throwable root = error;
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof Readable && t.getMessage() != null) {
                return bounded(t.getMessage());
            }
            root = t;
        }
        return bounded(root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage());
    }

    private static String bounded(String message) {
        return message.length() > MAX ? message.substring(0, MAX) + "…" : message;
    }
}
