package io.lorekeeper.text;

/** A half-open character range {@code [start, end)} of some text. */
public record Span(int start, int end) {

    public Span {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("invalid span [" + start + ", " + end + ")");
        }
    }

    public int length() {
        return end - start;
    }

    public String of(String text) {
        return text.substring(start, end);
    }

    public boolean contains(Span other) {
        return start <= other.start && other.end <= end;
    }

    public boolean overlaps(Span other) {
        return start < other.end && other.start < end;
    }
}
