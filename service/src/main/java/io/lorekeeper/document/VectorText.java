package io.lorekeeper.document;

/**
 * A vector in pgvector's text form, {@code [0.1,-0.2,...]}: how the modules that store embeddings
 * read a vector column cast to text, and write one where a batch binds vectors as text (the JDBC
 * driver's vector type is not on the compile classpath of every reader).
 */
public final class VectorText {

    private VectorText() {}

    /** The vector a {@code vector::text} column holds. */
    public static float[] parse(String text) {
        String body = text.strip();
        String[] parts = body.substring(1, body.length() - 1).split(",");
        float[] out = new float[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = Float.parseFloat(parts[i]);
        }
        return out;
    }

    /** The text pgvector reads as this vector. */
    public static String of(float[] v) {
        StringBuilder out = new StringBuilder(v.length * 10).append('[');
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(v[i]);
        }
        return out.append(']').toString();
    }
}
