package io.lorekeeper.eval;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parser for Python literals as {@code repr} writes them (LooGLE stores {@code qa_pairs} that
 * way): dicts, lists, tuples, single- or double-quoted strings with escapes (adjacent strings are
 * concatenated), ints, floats, True, False, None. No evaluation of anything else.
 */
final class PythonLiteral {

    private final String s;
    private int i;

    private PythonLiteral(String s) {
        this.s = s;
    }

    static Object parse(String text) {
        PythonLiteral p = new PythonLiteral(text);
        Object value = p.value();
        p.skipSpace();
        if (p.i != p.s.length()) {
            throw p.error("trailing characters");
        }
        return value;
    }

    private Object value() {
        skipSpace();
        if (i >= s.length()) {
            throw error("unexpected end");
        }
        char c = s.charAt(i);
        switch (c) {
            case '{':
                return dict();
            case '[':
                return sequence(']');
            case '(':
                return sequence(')');
            case '\'':
            case '"':
                StringBuilder joined = new StringBuilder(string());
                while (true) {
                    skipSpace();
                    if (i < s.length() && (s.charAt(i) == '\'' || s.charAt(i) == '"')) {
                        joined.append(string());
                    } else {
                        return joined.toString();
                    }
                }
            default:
                return atom();
        }
    }

    private Map<String, Object> dict() {
        Map<String, Object> out = new LinkedHashMap<>();
        i++;
        while (true) {
            skipSpace();
            if (peek() == '}') {
                i++;
                return out;
            }
            Object key = value();
            skipSpace();
            expect(':');
            out.put(String.valueOf(key), value());
            skipSpace();
            if (peek() == ',') {
                i++;
            } else if (peek() != '}') {
                throw error("expected , or }");
            }
        }
    }

    private List<Object> sequence(char close) {
        List<Object> out = new ArrayList<>();
        i++;
        while (true) {
            skipSpace();
            if (peek() == close) {
                i++;
                return out;
            }
            out.add(value());
            skipSpace();
            if (peek() == ',') {
                i++;
            } else if (peek() != close) {
                throw error("expected , or " + close);
            }
        }
    }

    private String string() {
        char quote = s.charAt(i);
        boolean triple = s.startsWith(String.valueOf(quote).repeat(3), i);
        i += triple ? 3 : 1;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (i >= s.length()) {
                throw error("unterminated string");
            }
            char c = s.charAt(i);
            if (c == '\\') {
                i++;
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case '0' -> out.append('\0');
                    case 'x' -> {
                        out.append((char) Integer.parseInt(s.substring(i, i + 2), 16));
                        i += 2;
                    }
                    case 'u' -> {
                        out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    case 'U' -> {
                        out.appendCodePoint(Integer.parseInt(s.substring(i, i + 8), 16));
                        i += 8;
                    }
                    case '\n' -> {}
                    default -> out.append(e); // \\ \' \" and unknown escapes kept as the character
                }
            } else if (c == quote
                    && (!triple || s.startsWith(String.valueOf(quote).repeat(3), i))) {
                i += triple ? 3 : 1;
                return out.toString();
            } else {
                out.append(c);
                i++;
            }
        }
    }

    private Object atom() {
        int start = i;
        while (i < s.length() && ",:]})".indexOf(s.charAt(i)) < 0 && !Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        String word = s.substring(start, i);
        return switch (word) {
            case "True" -> Boolean.TRUE;
            case "False" -> Boolean.FALSE;
            case "None" -> null;
            default -> {
                try {
                    yield word.matches("[-+]?\\d+") ? (Object) Long.parseLong(word) : (Object) Double.parseDouble(word);
                } catch (NumberFormatException e) {
                    throw error("unexpected '" + word + "'");
                }
            }
        };
    }

    private char peek() {
        if (i >= s.length()) {
            throw error("unexpected end");
        }
        return s.charAt(i);
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected " + c);
        }
        i++;
    }

    private void skipSpace() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("bad Python literal at " + i + ": " + what);
    }
}
