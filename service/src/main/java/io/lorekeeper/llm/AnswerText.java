package io.lorekeeper.llm;

/**
 * Picks the answer's text out of a reply while it arrives in pieces: the value of the top-level
 * {@code "answer"} string of a JSON reply (escapes decoded), or the whole reply when the model writes
 * prose. Fed the pieces in order, it returns what each adds, so the pieces it returns concatenate to
 * the answer as the finished reply holds it.
 */
final class AnswerText {

    private static final String KEY = "answer";
    /** A reply that opens with a code fence decides its kind once a brace appears or this many characters pass. */
    private static final int FENCE_LOOKAHEAD = 16;

    private enum Mode {
        UNDECIDED,
        JSON,
        PROSE
    }

    private Mode mode = Mode.UNDECIDED;
    private final StringBuilder undecided = new StringBuilder();

    // the JSON scanner's state, kept between pieces
    private int depth;
    private boolean inString;
    private boolean escaped;
    private final StringBuilder token = new StringBuilder();
    private String lastKey;
    private boolean valueIsAnswer;
    private boolean inAnswer;
    private boolean answered;
    private int unicodeLeft;
    private int unicode;

    /** The answer's text that {@code piece} adds; empty when it adds none. */
    String feed(String piece) {
        if (piece == null || piece.isEmpty()) {
            return "";
        }
        return switch (mode) {
            case PROSE -> piece;
            case JSON -> scan(piece);
            case UNDECIDED -> decide(piece);
        };
    }

    private String decide(String piece) {
        undecided.append(piece);
        String seen = undecided.toString().stripLeading();
        if (seen.isEmpty()) {
            return "";
        }
        if (seen.charAt(0) == '{') {
            mode = Mode.JSON;
            return scan(seen);
        }
        if (seen.charAt(0) == '`') {
            int brace = seen.indexOf('{');
            if (brace >= 0) {
                mode = Mode.JSON;
                return scan(seen.substring(brace));
            }
            if (seen.length() < FENCE_LOOKAHEAD) {
                return "";
            }
        }
        mode = Mode.PROSE;
        return seen;
    }

    private String scan(String piece) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < piece.length() && !answered; i++) {
            char c = piece.charAt(i);
            if (inAnswer) {
                answerChar(c, out);
            } else if (inString) {
                stringChar(c);
            } else {
                structural(c);
            }
        }
        return out.toString();
    }

    private void answerChar(char c, StringBuilder out) {
        if (unicodeLeft > 0) {
            int digit = Character.digit(c, 16);
            unicode = unicode * 16 + Math.max(digit, 0);
            if (--unicodeLeft == 0) {
                out.append((char) unicode);
            }
        } else if (escaped) {
            escaped = false;
            switch (c) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    unicodeLeft = 4;
                    unicode = 0;
                }
                default -> out.append(c); // \" \\ \/
            }
        } else if (c == '\\') {
            escaped = true;
        } else if (c == '"') {
            inAnswer = false;
            answered = true;
        } else {
            out.append(c);
        }
    }

    private void stringChar(char c) {
        if (escaped) {
            escaped = false;
            token.append(c);
        } else if (c == '\\') {
            escaped = true;
        } else if (c == '"') {
            inString = false;
            if (depth == 1) {
                lastKey = token.toString();
            }
        } else {
            token.append(c);
        }
    }

    private void structural(char c) {
        switch (c) {
            case '"' -> {
                if (valueIsAnswer) {
                    valueIsAnswer = false;
                    inAnswer = true;
                } else {
                    inString = true;
                    token.setLength(0);
                }
            }
            case '{', '[' -> {
                depth++;
                valueIsAnswer = false;
            }
            case '}', ']' -> depth--;
            case ':' -> {
                valueIsAnswer = depth == 1 && KEY.equals(lastKey);
                lastKey = null;
            }
            case ',' -> lastKey = null;
            default -> {
                if (!Character.isWhitespace(c)) {
                    valueIsAnswer = false; // null, a number: no text to stream
                }
            }
        }
    }
}
